import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeDocumentParse } from '../../../src/main/core/backends/platform-runtime/runtime-document-parse.js';
import { ObjectStorage } from '../../../src/main/core/storage/object-storage.js';
import { serveSignedObject } from '../../../src/main/core/storage/serve-signed-object.js';
import { RuntimeCreate } from '../../../src/main/core/backends/platform-runtime/runtime-create.js';
import { platformJobsOfSession } from '../../support/platform-simulator.js';
import { makePdf } from '../simulator/fixtures.js';
import { RuntimeWorld } from './runtime-world.js';

/**
 * Document parse on the platform: a `document_parse` runtime job whose document travels as a signed
 * readUrl of the person's storage, committed and created by the engine, its JSON result verified
 * into the library and saved as the public parse saves it.
 */
const world = new RuntimeWorld();
const signingKey = randomBytes(32);
const subjectKey = 'a1'.repeat(16);
let server: Server;
let sessionId: string;
let create: RuntimeCreate;

beforeAll(async () => {
  await world.start();
  sessionId = await world.signIn('member');
  const storage = new ObjectStorage(path.join(world.dir, 'objects'));
  server = http.createServer((req, res) => {
    void serveSignedObject(req, res, {
      signingKey,
      storageFor: (key) => (key === subjectKey ? storage : undefined),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const publicOrigin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  create = new RuntimeCreate({
    client: world.client,
    session: world.sessions.current,
    drafts: {
      stored: () => {
        throw new Error('a parse has no draft');
      },
    },
    staged: { resolve: () => Promise.reject(new Error('a parse stages nothing')) },
    readUrls: { storage, signingKey, publicOrigin, subjectKey },
    projects: { draftProject: () => undefined },
    engine: world.engine,
  });
});
afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  await world.close();
});

describe('document parse as a runtime job', () => {
  it('parses a PDF into markdown and the library files; the same parse again creates no second job', async () => {
    const parse = runtimeDocumentParse({
      createMediaJob: (job) => create.createMediaJob(job),
      waitSeconds: () => 30,
    });
    const [service] = await create.documentServices();
    expect(service?.serviceKind).toBe('document_parse');
    const pdf = path.join(world.dir, 'report.pdf');
    writeFileSync(pdf, makePdf());
    const libraryDir = path.join(world.dir, 'parses');

    const result = await parse(service!, pdf, libraryDir, {
      language: 'en',
      pageRange: { start: 2, end: 3 },
    });

    expect(result.response.pageCount).toBe(2);
    expect(result.response.pages.map((p) => p.page)).toEqual([2, 3]);
    expect(result.folder.startsWith(path.join(libraryDir, 'documents'))).toBe(true);
    expect(result.files.map((f) => path.basename(f))).toEqual([
      'result.json',
      'document.md',
      'framewright.json',
    ]);
    expect((JSON.parse(readFileSync(result.files[0]!, 'utf8')) as { id: string }).id).toBe(
      result.response.id,
    );
    expect(readFileSync(result.files[1]!, 'utf8')).toContain('## Page 3');
    const provenance = JSON.parse(readFileSync(result.files[2]!, 'utf8')) as {
      kind: string;
      source: string;
      request: { serviceKind: string; inputs: { role: string; readUrl: string }[] };
    };
    expect(provenance).toMatchObject({ kind: 'document_parse', source: 'report.pdf' });
    expect(provenance.request.serviceKind).toBe('document_parse');
    expect(provenance.request.inputs.map((i) => i.role)).toEqual(['input_document']);
    expect(provenance.request.inputs[0]!.readUrl.startsWith('http://127.0.0.1:')).toBe(true);

    // the engine downloaded and verified the job's JSON result
    const jobs = await platformJobsOfSession(world.sim, world.app.appKey, sessionId);
    expect(jobs).toHaveLength(1);
    const intent = world.journal.jobs.getIntent(jobs[0]!.clientTaskId)!;
    const job = world.journal.jobs.getJobForIntent(intent.id)!;
    expect(job.outputs.map((o) => [o.downloadState, o.mimeType])).toEqual([['verified', 'application/json']]);
    expect(existsSync(job.outputs[0]!.localPath!)).toBe(true);

    const again = await parse(service!, pdf, libraryDir, { language: 'en', pageRange: { start: 2, end: 3 } });
    expect(again.response.id).toBe(result.response.id);
    expect(await platformJobsOfSession(world.sim, world.app.appKey, sessionId)).toHaveLength(1);
  });
});
