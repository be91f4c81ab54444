import { randomBytes } from 'node:crypto';
import type { SecretStore } from '../secrets/secret-store.js';
import { SIGNING_KEY_ENTRY, type ReadUrlKeyring } from './signed-read-url.js';

/** The secret store entry holding the signing keys and the subjects' revocation epochs (JSON). */
export const SIGNING_KEYS_ENTRY = 'read-url-signing-keys';
/** A new signing key is made this often; the one it replaces keeps verifying for READ_URL_MAX_LIFETIME_MS. */
export const READ_URL_KEY_ROTATION_MS = 7 * 24 * 3600 * 1000;
/**
 * The longest a readUrl is signed for (a film sent to a board: to the end of the 8th day), so a
 * retired key verifies every URL it signed until that URL's own expiry, and not one moment longer.
 */
export const READ_URL_MAX_LIFETIME_MS = 9 * 24 * 3600 * 1000;

interface StoredKeys {
  current: { key: string; since: number };
  retired: { key: string; acceptUntil: number }[];
  /** Subject key → revocation epoch (absent: 0). */
  epochs: Record<string, number>;
}

/**
 * The backend's readUrl signing keys, kept in the secret store: one signs, the ones it replaced
 * verify until the URLs they signed have expired (rotation with overlap), and each subject has a
 * revocation epoch signed into its URLs, so `revokeSubject` refuses every readUrl of one person at
 * once and nobody else's. Not derived from the application credential (the platform knows it).
 */
export class ReadUrlKeys implements ReadUrlKeyring {
  private constructor(
    private readonly store: Pick<SecretStore, 'get' | 'set' | 'delete'>,
    private state: StoredKeys,
    private readonly now: () => number,
  ) {}

  /**
   * Loads the keys (making the first one, or taking over the single key of earlier versions, so
   * the URLs they signed keep working) and rotates when the signing key is older than the rotation.
   */
  static async load(
    store: Pick<SecretStore, 'get' | 'set' | 'delete'>,
    now: () => number = Date.now,
  ): Promise<ReadUrlKeys> {
    const keys = new ReadUrlKeys(store, await readState(store, now()), now);
    await keys.rotateIfDue();
    return keys;
  }

  get signing(): Buffer {
    return Buffer.from(this.state.current.key, 'base64url');
  }

  accepted(at: Date = new Date(this.now())): readonly Buffer[] {
    return [
      this.signing,
      ...this.state.retired
        .filter((r) => r.acceptUntil > at.getTime())
        .map((r) => Buffer.from(r.key, 'base64url')),
    ];
  }

  epochOf(subjectKey: string): number {
    return this.state.epochs[subjectKey] ?? 0;
  }

  /** Signs with a new key from now on; the old one verifies what it signed until that expires. */
  async rotate(): Promise<void> {
    const now = this.now();
    this.state = {
      current: { key: randomBytes(32).toString('base64url'), since: now },
      retired: [
        { key: this.state.current.key, acceptUntil: now + READ_URL_MAX_LIFETIME_MS },
        ...this.state.retired.filter((r) => r.acceptUntil > now),
      ],
      epochs: this.state.epochs,
    };
    await this.save();
  }

  /** Rotates when the signing key is older than {@link READ_URL_KEY_ROTATION_MS}; true when it did. */
  async rotateIfDue(): Promise<boolean> {
    if (this.now() - this.state.current.since < READ_URL_KEY_ROTATION_MS) return false;
    await this.rotate();
    return true;
  }

  /** Refuses every readUrl signed for `subjectKey` so far (new ones are signed under the next epoch). */
  async revokeSubject(subjectKey: string): Promise<void> {
    this.state = {
      ...this.state,
      epochs: { ...this.state.epochs, [subjectKey]: this.epochOf(subjectKey) + 1 },
    };
    await this.save();
  }

  private async save(): Promise<void> {
    await this.store.set(SIGNING_KEYS_ENTRY, JSON.stringify(this.state));
  }
}

async function readState(
  store: Pick<SecretStore, 'get' | 'set' | 'delete'>,
  now: number,
): Promise<StoredKeys> {
  const stored = await store.get(SIGNING_KEYS_ENTRY);
  if (stored) {
    const parsed = JSON.parse(stored) as StoredKeys;
    if (Buffer.from(parsed.current?.key ?? '', 'base64url').length === 32)
      return { current: parsed.current, retired: parsed.retired ?? [], epochs: parsed.epochs ?? {} };
  }
  // the single key of earlier versions signs on (its URLs stay valid) until the first rotation
  const legacy = await store.get(SIGNING_KEY_ENTRY);
  const legacyKey = legacy ? Buffer.from(legacy, 'base64url') : undefined;
  const state: StoredKeys = {
    current: {
      key: (legacyKey?.length === 32 ? legacyKey : randomBytes(32)).toString('base64url'),
      since: now,
    },
    retired: [],
    epochs: {},
  };
  await store.set(SIGNING_KEYS_ENTRY, JSON.stringify(state));
  if (legacy) await store.delete(SIGNING_KEY_ENTRY);
  return state;
}
