import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../../../src/main/core/journal/open-journal.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const fixture = fileURLToPath(new URL('./fixtures/record-then-hang.ts', import.meta.url));
let dir: string | undefined;

describe('journal crash safety', () => {
  it('keeps the intent and the acceptance of a process killed with SIGKILL right after committing them', async () => {
    dir = tempFolder('framewright-crash-');
    const file = path.join(dir, 'journal.sqlite');
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, file], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('intent-committed\n')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`child exited early (${code}): ${stderr}`)));
    });
    const exited = new Promise((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const journal = openJournal({ path: file });
    try {
      const work = journal.jobs.listUnfinished();
      expect(work.intents.map((i) => [i.idempotencyKey, i.state, i.canonicalBodyJson])).toEqual([
        ['in-flight-key', 'pending_create', '{"prompt":"a dune"}'],
      ]);
      expect(work.jobsToPoll.map((j) => [j.jobId, j.requestId, j.jobUrl])).toEqual([
        ['job-1', 'req-1', 'http://127.0.0.1:1/v1/jobs/job-1?model=h3'],
      ]);
    } finally {
      journal.close();
    }
  });

  it('lets two processes (app and CLI) share one journal', () => {
    dir = tempFolder('framewright-shared-');
    const file = path.join(dir, 'journal.sqlite');
    const app = openJournal({ path: file });
    const cli = openJournal({ path: file });
    try {
      app.profiles.create({ id: 'p', name: 'P', kind: 'simulator' });
      cli.jobs.recordIntent({
        idempotencyKey: 'from-cli',
        profileId: 'p',
        model: 'm',
        serviceKind: 'video_generation',
        body: {},
      });
      expect(app.jobs.getIntent('from-cli')?.state).toBe('pending_create');
      const reading = app.jobs.listUnfinished(); // a read in one while the other writes
      cli.jobs.markUnknown('from-cli');
      expect(reading.intents).toHaveLength(1);
      expect(app.jobs.getIntent('from-cli')?.state).toBe('unknown');
    } finally {
      cli.close();
      app.close();
    }
  });
});
