import { createHash, createHmac, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** File of the platform's secret key under `--data-dir` (owner-only; never in the state log). */
export const PLATFORM_SECRET_KEY_FILE = 'platform-secret.key';

/** sha256 (hex) of a secret: what the stores keep and look secrets up by. */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/**
 * The simulator's own key for the secrets it must be able to answer again (a RuntimeSession id at
 * a repeated renewal, a job recovery reference at a replayed creation, a grant at a replayed
 * issue): each is derived from the key and the record's non-secret id, so the state log keeps
 * only the id and the secret's hash, never the secret. With a data folder the key lives in
 * `DIR/platform-secret.key` (mode 0600, created at the first start), so secrets answered before a
 * restart are answered the same after it; without one it lives in memory only.
 */
export class PlatformSecrets {
  private readonly key: Buffer;

  constructor(dataDir?: string) {
    this.key = dataDir
      ? PlatformSecrets.keyFile(path.join(dataDir, PLATFORM_SECRET_KEY_FILE))
      : randomBytes(32);
  }

  private static keyFile(file: string): Buffer {
    if (existsSync(file)) {
      const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
      if (key.length === 32) return key;
    }
    const key = randomBytes(32);
    writeFileSync(file, key.toString('base64url') + '\n', { mode: 0o600 });
    chmodSync(file, 0o600);
    return key;
  }

  /** The secret of one record: `prefix_` and 43 base64url characters, the same for the same kind and id. */
  derive(prefix: string, kind: string, id: string): string {
    const mac = createHmac('sha256', this.key).update(`${kind}\u0000${id}`).digest('base64url');
    return `${prefix}_${mac}`;
  }
}
