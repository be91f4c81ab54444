/**
 * ffmpeg and ffprobe run with a minimal environment: the backend's application credential (and any
 * other setting or key of the process) never reaches them. Stand-ins for both tools record the
 * environment they were started with.
 */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const dir = mkdtempSync(path.join(tmpdir(), 'fw-tool-env-'));
const dump = (tool: string) => path.join(dir, `${tool}.env`);
for (const tool of ['ffmpeg', 'ffprobe']) {
  const script = path.join(dir, tool);
  // prints what ffprobe's JSON callers and ffmpeg's progress reader expect, after dumping its env
  writeFileSync(
    script,
    `#!/bin/sh\nenv > '${dump(tool)}'\n` +
      (tool === 'ffprobe' ? `echo '{"streams":[],"format":{}}'\n` : `echo progress=end\n`),
  );
  chmodSync(script, 0o755);
}
const saved = { ...process.env };

beforeAll(() => {
  process.env.FFMPEG_PATH = path.join(dir, 'ffmpeg');
  process.env.FFPROBE_PATH = path.join(dir, 'ffprobe');
  process.env.PLATFORM_APP_CREDENTIAL = 'app-credential-must-not-leak';
  process.env.FRAMEWRIGHT_API_KEY = 'api-key-must-not-leak';
});
afterAll(() => {
  process.env = saved;
});

describe('the media tools’ environment', () => {
  it('ffmpeg and ffprobe see PATH and HOME, never the credential or Framewright’s settings', async () => {
    const { runFfmpegWithProgress } = await import('../../../src/main/core/media-tools/ffmpeg-run.js');
    const { ffprobeJson } = await import('../../../src/main/core/media-tools/probe-media.js');
    await runFfmpegWithProgress(
      ['-progress', 'pipe:1', '-nostats'],
      1,
      {},
      {
        code: 'sequence.assembly_failed',
        doing: 'test the environment',
        stopped: 'stopped',
      },
    );
    // a real PNG, so the sniff before ffprobe lets it run
    const png = path.join(dir, 'frame.png');
    writeFileSync(
      png,
      Buffer.from(
        'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        'base64',
      ),
    );
    await ffprobeJson(png);
    for (const tool of ['ffmpeg', 'ffprobe']) {
      const env = readFileSync(dump(tool), 'utf8');
      expect(env, tool).not.toContain('app-credential-must-not-leak');
      expect(env, tool).not.toContain('api-key-must-not-leak');
      expect(env, tool).not.toMatch(/^FRAMEWRIGHT_/m);
      expect(env, tool).toMatch(/^PATH=/m);
    }
  });
});
