import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimClock } from '../../../src/simulator/clock.js';
import { findApp } from '../../../src/simulator/platform/fixtures.js';
import { PlatformLog, type PlatformLogRecord } from '../../../src/simulator/platform/platform-log.js';
import { SessionStore } from '../../../src/simulator/platform/session-store.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const dir = tempFolder('fw-session-store-');

/** A platform log whose next write fails (a full disk, a closed file). */
class FailingLog extends PlatformLog {
  failNext = false;
  override appendMany(records: readonly PlatformLogRecord[]): void {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('ENOSPC: no space left on device');
    }
    super.appendMany(records);
  }
}

describe('SessionStore writes', () => {
  const app = findApp('framewright-studio')!;

  it('a failed write at exchange leaves the launch code usable, and the retried exchange persists code and session together', () => {
    const file = path.join(dir, 'exchange.jsonl');
    const log = new FailingLog(file);
    const store = new SessionStore(new SimClock(), log);
    const { launchCode } = store.issueLaunchCode(app, 'member');
    log.failNext = true;
    expect(() => store.exchange(app.appKey, launchCode)).toThrow(/ENOSPC/);
    const session = store.exchange(app.appKey, launchCode);
    expect(session?.subject.userId).toBe('usr_sim_member');
    expect(store.exchange(app.appKey, launchCode)).toBeUndefined();
    const kinds = new PlatformLog(file).read().map((r) => [r.t, (r.v as { consumed?: boolean }).consumed]);
    expect(kinds).toEqual([
      ['launch_code', true],
      ['session', undefined],
    ]);
  });

  it('a failed write at renewal changes nothing: the old session renews afterwards to one successor', () => {
    const log = new FailingLog(path.join(dir, 'renew.jsonl'));
    const store = new SessionStore(new SimClock(), log);
    const old = store.exchange(app.appKey, store.issueLaunchCode(app, 'manager').launchCode)!;
    log.failNext = true;
    expect(() => store.renew(app.appKey, old.sessionId)).toThrow(/ENOSPC/);
    expect(store.usable(app.appKey, old.sessionId)?.renewedTo).toBeUndefined();
    const first = store.renew(app.appKey, old.sessionId);
    const second = store.renew(app.appKey, old.sessionId);
    expect(first.ok && second.ok && first.session.sessionId === second.session.sessionId).toBe(true);
  });
});
