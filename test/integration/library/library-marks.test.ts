import { readFileSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFramewright, simulatorVideoArgs } from '../../support/cli-runner.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const json = (text: string) => JSON.parse(text.trim().split('\n').at(-1)!) as Record<string, unknown>;

interface Listed {
  jobId: string;
  marks: { flag: string | null; stars: number; label: string | null };
}

/** The sidecar of a job's folder in the library. */
function sidecarOf(dataDir: string, jobId: string): { marks?: Listed['marks'] } {
  const library = path.join(dataDir, 'library');
  const found = readdirSync(library, { recursive: true, encoding: 'utf8' }).find(
    (name) => path.basename(name) === 'framewright.json' && name.includes(jobId),
  );
  return JSON.parse(readFileSync(path.join(library, found!), 'utf8')) as { marks?: Listed['marks'] };
}

describe('framewright library mark and list (issue 41: marks)', () => {
  it('marks a result pick, 4 stars, green; lists by marks; refuses bad marks; reindex restores them', async () => {
    const dataDir = tempFolder('fw-marks-');
    const cli = (...args: string[]) => runFramewright(['--data-dir', dataDir, ...args]);
    const made = [];
    for (const prompt of ['A kite over dunes, take one', 'A kite over dunes, take two']) {
      const run = await runFramewright(simulatorVideoArgs(dataDir, prompt));
      expect(run.code, run.stderr).toBe(0);
      made.push(json(run.stdout).jobId as string);
    }
    const [kept, other] = made as [string, string];

    const marked = await cli('--json', 'library', 'mark', kept, '--pick', '--stars', '4', '--label', 'green');
    expect(marked.code, marked.stderr).toBe(0);
    expect(json(marked.stdout)).toMatchObject({
      jobId: kept,
      marks: { flag: 'pick', stars: 4, label: 'green' },
    });
    // a change of one mark keeps the others
    await cli('library', 'mark', other, '--reject');
    expect(json((await cli('--json', 'library', 'mark', other, '--stars', '2')).stdout)).toMatchObject({
      marks: { flag: 'reject', stars: 2, label: null },
    });

    const ids = async (...filter: string[]) =>
      ((json((await cli('--json', 'library', 'list', ...filter)).stdout).data as Listed[]) ?? []).map(
        (r) => r.jobId,
      );
    expect(await ids('--pick', '--stars', '4')).toEqual([kept]);
    expect(await ids('--stars', '2')).toEqual([other, kept]);
    expect(await ids('--by-rating')).toEqual([kept, other]);
    expect(await ids('--reject')).toEqual([other]);
    expect(await ids('--unmarked')).toEqual([]);
    expect(await ids('--label', 'green')).toEqual([kept]);
    expect(await ids('--stars', '5')).toEqual([]);

    // bad input: exit 2, a clear message, nothing changed
    for (const bad of [
      ['mark', kept, '--stars', '6'],
      ['mark', kept, '--stars', '2.5'],
      ['mark', kept, '--label', 'pink'],
      ['mark', kept, '--pick', '--reject'],
      ['mark', kept],
      ['list', '--stars', 'many'],
    ]) {
      const refused = await cli('library', ...bad);
      expect(refused.code, bad.join(' ')).toBe(2);
      expect(refused.stderr).toMatch(/--stars|--label|--pick|Say what to mark/);
    }
    expect(await ids('--pick', '--stars', '4', '--label', 'green')).toEqual([kept]);

    // the sidecar carries the marks; the journal lost, reindex restores them
    expect(sidecarOf(dataDir, kept).marks).toEqual({ flag: 'pick', stars: 4, label: 'green' });
    for (const suffix of ['', '-wal', '-shm'])
      rmSync(path.join(dataDir, `journal.sqlite${suffix}`), { force: true });
    expect(await ids()).toEqual([]);
    expect((await cli('library', 'reindex')).code).toBe(0);
    expect(await ids('--pick', '--stars', '4', '--label', 'green')).toEqual([kept]);
    expect(await ids('--reject', '--stars', '2')).toEqual([other]);

    // cleared: the defaults, in the journal and the sidecar
    const cleared = await cli(
      '--json',
      'library',
      'mark',
      kept,
      '--unmark',
      '--stars',
      '0',
      '--label',
      'none',
    );
    expect(json(cleared.stdout)).toMatchObject({ marks: { flag: null, stars: 0, label: null } });
    expect(sidecarOf(dataDir, kept).marks).toEqual({ flag: null, stars: 0, label: null });
    expect(await ids('--unmarked')).toEqual([kept]);

    // a result whose folder was removed by hand is still marked, in the journal
    const library = path.join(dataDir, 'library');
    const folder = readdirSync(library, { recursive: true, encoding: 'utf8' }).find(
      (name) => path.basename(name) === 'framewright.json' && name.includes(other),
    )!;
    rmSync(path.dirname(path.join(library, folder)), { recursive: true, force: true });
    const gone = await cli('--json', 'library', 'mark', other, '--pick');
    expect(gone.code, gone.stderr).toBe(0);
    expect(await ids('--pick')).toEqual([other]);
  });
});
