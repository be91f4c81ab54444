import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../../src/simulator/clock.js';
import { CliSessionStore } from '../../../src/simulator/platform/developer/cli-session-store.js';
import { FIXTURE_SUBJECTS } from '../../../src/simulator/platform/fixtures.js';
import { PlatformLog } from '../../../src/simulator/platform/platform-log.js';
import { PLATFORM_SECRET_KEY_FILE, PlatformSecrets } from '../../../src/simulator/platform/secrets.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const tempDir = () => {
  const dir = tempFolder('fw-platform-secrets-');
  return dir;
};

describe('PlatformSecrets', () => {
  it('keeps its key in an owner-only file and derives the same secret from it after a restart', () => {
    const dir = tempDir();
    const first = new PlatformSecrets(dir).derive('jrr', 'job_recovery', 'job_1');
    expect(first).toMatch(/^jrr_[A-Za-z0-9_-]{43}$/);
    expect(statSync(path.join(dir, PLATFORM_SECRET_KEY_FILE)).mode & 0o077).toBe(0);
    expect(new PlatformSecrets(dir).derive('jrr', 'job_recovery', 'job_1')).toBe(first);
    // another record, another kind, another key: another secret
    expect(new PlatformSecrets(dir).derive('jrr', 'job_recovery', 'job_2')).not.toBe(first);
    expect(new PlatformSecrets(dir).derive('jrr', 'app_grant', 'job_1')).not.toBe(first);
    expect(new PlatformSecrets(tempDir()).derive('jrr', 'job_recovery', 'job_1')).not.toBe(first);
    expect(new PlatformSecrets().derive('jrr', 'job_recovery', 'job_1')).not.toBe(first);
  });
});

describe('CliSessionStore at rest', () => {
  it('logs neither the access token nor the runtime session id, and restores both usable', () => {
    const dir = tempDir();
    const file = path.join(dir, 'platform-state.jsonl');
    const clock = new SimClock();
    const store = new CliSessionStore(clock, new PlatformLog(file), new PlatformSecrets(dir));
    const { record, accessToken } = store.issue({
      appId: 'app_1',
      appKey: 'framewright-studio',
      appVersionId: 'appver_1',
      testAccountId: null,
      subject: { ...FIXTURE_SUBJECTS.member },
    });
    expect(record.runtimeSessionId).toMatch(/^rs_dbg_/);
    const written = readFileSync(file, 'utf8');
    expect(written).toContain(record.cliSessionId);
    expect(written).not.toContain(accessToken);
    expect(written).not.toContain(record.runtimeSessionId);

    const restored = new CliSessionStore(clock, new PlatformLog(file), new PlatformSecrets(dir));
    restored.restore(new PlatformLog(file).read());
    expect(restored.byToken(accessToken)?.runtimeSessionId).toBe(record.runtimeSessionId);
    expect(JSON.stringify(restored.snapshot())).not.toContain(record.runtimeSessionId);
  });
});
