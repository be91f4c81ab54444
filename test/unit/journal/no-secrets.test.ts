import { readFileSync, existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { credentialFingerprint } from '../../../src/main/core/secrets/credential-fingerprint.js';
import { ProfileCredentials } from '../../../src/main/core/secrets/profile-credentials.js';
import { MemorySecretStore } from '../secrets/fakes.js';
import { tempJournal, SHA_A } from './helpers.js';

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

const API_KEY = 'fw-personal-Q9x7Lm2Pz4Kd8Rt6';
const DEBUG_TOKEN = 'dbg-runtime-H3v5Nc1Wq0Ye7Ua2';

describe('the journal never contains a secret', () => {
  it('after creating profiles with a key and a token and using every repository', async () => {
    t = tempJournal();
    const j = t.journal;
    const credentials = new ProfileCredentials(j.profiles, new MemorySecretStore());
    const personal = await credentials.createProfile({
      name: 'Work',
      kind: 'personal',
      baseUrl: 'https://api.example.com/v1',
      secret: API_KEY,
    });
    const debug = await credentials.createProfile({
      name: 'Debug',
      kind: 'debug',
      baseUrl: 'https://rt.example.com/v1',
    });
    await credentials.setSecret(debug.id, DEBUG_TOKEN, { debugTokenExpiresAt: t.clock.now + 3_600_000 });
    await credentials.setSecret(personal.id, API_KEY); // rotate to the same key: still only the flag
    expect(await credentials.getSecret(personal.id)).toBe(API_KEY);

    // Exercise every table the way the engine will.
    j.settings.set('defaultProfile', personal.id);
    j.drafts.save('d1', { prompt: 'a kite', profileId: personal.id });
    j.discovery.put(personal.id, 'services', { object: 'list', data: [] });
    j.localFiles.record({ path: '/in/a.png', sha256: SHA_A, byteSize: 3, modifiedAt: 1, kind: 'image' });
    j.uploads.record({
      sha256: SHA_A,
      byteSize: 3,
      profileId: personal.id,
      credentialFingerprint: credentialFingerprint(API_KEY),
      model: 'h3',
      uploadField: 'image',
      assetId: 'asset-1',
      assetKind: 'image',
      mimeType: 'image/png',
      reused: false,
      expiresAt: t.clock.now + 1e8,
    });
    j.optimizations.record({
      clientRequestId: 'opt-00000001',
      profileId: personal.id,
      model: 'h3',
      generationMode: 't2v',
      body: { originalPrompt: 'a kite' },
    });
    j.jobs.recordIntent({
      idempotencyKey: 'intent-1',
      profileId: personal.id,
      model: 'h3',
      serviceKind: 'video_generation',
      body: { prompt: 'a kite' },
    });
    const job = j.jobs.markAccepted('intent-1', {
      jobId: 'job-1',
      requestId: 'req-1',
      jobUrl: 'https://api.example.com/v1/jobs/job-1?model=h3',
      status: 'succeeded',
      outputs: [{ assetId: 'out-1', contentUrl: 'https://api.example.com/v1/assets/out-1/content?model=h3' }],
    });
    j.outputs.markDownloading(job.outputs[0]!.id, '/lib/.tmp/x');
    const call = j.serviceCalls.record({
      profileId: personal.id,
      model: 'vector-embed',
      operation: 'embeddings',
      request: { inputCount: 1, totalCharacters: 5 },
    });
    j.serviceCalls.markFailed(call.id, { statusCode: 401, errorCode: 'unauthorized', requestId: 'req-2' });
    const sent = j.serviceCalls.record({ profileId: personal.id, model: 'm', operation: 'ocr', request: {} });
    j.serviceCalls.markSucceeded(sent.id, { requestId: 'req-3', response: { blockCount: 2 } });

    // Every column of every table (FTS shadow tables included), whatever its declared type.
    const db = j.database;
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .pluck()
      .all() as string[];
    expect(tables.length).toBeGreaterThan(10);
    let cellsScanned = 0;
    for (const table of tables) {
      const cols = (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string }[]).map(
        (c) => c.name,
      );
      for (const row of db.prepare(`SELECT * FROM "${table}"`).raw().all() as unknown[][]) {
        for (const [i, cell] of row.entries()) {
          const text = Buffer.isBuffer(cell) ? cell.toString('latin1') : String(cell);
          cellsScanned++;
          expect(text, `${table}.${cols[i] ?? i}`).not.toContain(API_KEY);
          expect(text, `${table}.${cols[i] ?? i}`).not.toContain(DEBUG_TOKEN);
        }
      }
    }
    expect(cellsScanned).toBeGreaterThan(100);

    // And the bytes on disk: the database file and its write-ahead log.
    for (const file of [t.file, `${t.file}-wal`]) {
      if (!existsSync(file)) continue;
      const bytes = readFileSync(file);
      expect(bytes.includes(Buffer.from(API_KEY)), file).toBe(false);
      expect(bytes.includes(Buffer.from(DEBUG_TOKEN)), file).toBe(false);
    }
    expect(existsSync(`${t.file}-wal`)).toBe(true);
  });
});
