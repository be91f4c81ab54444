import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { durably, openDatabase, whenDurable, type Database } from '../journal/database.js';
import {
  SecretStoreError,
  checkProfileId,
  normaliseSecret,
  type SecretNames,
  type SecretStore,
  type SecretStoreDescription,
} from './secret-store.js';

/** Where the store and its data key live: two files in two folders (backed up together, kept apart). */
export interface RowEncryptedSecretStoreFiles {
  /** The SQLite file of the rows (e.g. `<dataDir>/secrets/platform-secrets.sqlite`). */
  dbFile: string;
  /** The data key (e.g. `<dataDir>/keys/secret-store.key`): 32 random bytes, base64, mode 0600. */
  keyFile: string;
}

const KEY_BYTES = 32;
const KEY_FILE_LINE = /^([A-Za-z0-9+/]{43}=)\s*$/;
const KEY_CHECK_LABEL = 'framewright secret store: key check';

interface Row {
  iv: Buffer;
  tag: Buffer;
  data: Buffer;
}

/**
 * The secret store of the platform backend: one SQLite row per secret, each value encrypted alone
 * with AES-256-GCM under the backend's own data key (a random 32-byte key in its own 0600 file,
 * never derived from the application credential, which the platform knows), with a fresh IV on
 * every write. A row is keyed by an HMAC of its name, and its ciphertext is bound to that key
 * (additional data), so the file holds neither a name nor a secret and a row cannot be moved to
 * another name. A second HMAC, of the name's family (the part up to its first `:`), lets the
 * session sweep list one family without decrypting the others.
 *
 * Reads are served from an in-memory map after a name's first read (one indexed row, one
 * decryption); writes go to the row first, then to the map, and `set` and `delete` answer once the
 * row is on disk (a recovery reference survives a power cut): the -wal's fdatasync on libuv's
 * thread pool (`journal/database.ts`, `whenDurable`), not one inside `COMMIT` on the event loop.
 * Nothing is ever overwritten that does not decrypt: a key file that is not this store's refuses
 * the store at open, a row that does not decrypt refuses the read.
 */
export class RowEncryptedSecretStore implements SecretStore, SecretNames {
  private readonly memory = new Map<string, string>();
  private readonly encryptionKey: Buffer;
  private readonly nameKey: Buffer;
  private readonly selectRow;
  private readonly upsertRow;
  private readonly deleteRow;
  private readonly selectFamily;

  private constructor(
    private readonly db: Database,
    private readonly dbFile: string,
    dataKey: Buffer,
  ) {
    this.encryptionKey = subkey(dataKey, 'encryption');
    this.nameKey = subkey(dataKey, 'names');
    this.selectRow = db.prepare<[Buffer], Row>('SELECT iv, tag, data FROM secrets WHERE name = ?');
    this.upsertRow = db.prepare(
      'INSERT OR REPLACE INTO secrets (name, family, iv, tag, data) VALUES (@name, @family, @iv, @tag, @data)',
    );
    this.deleteRow = db.prepare<[Buffer]>('DELETE FROM secrets WHERE name = ?');
    this.selectFamily = db.prepare<[Buffer], Row & { name: Buffer; family: Buffer }>(
      'SELECT name, family, iv, tag, data FROM secrets WHERE family = ?',
    );
  }

  /**
   * Opens the store, creating the data key (atomically, 0600 in a 0700 folder) and the database
   * on first start. A database without its key file is refused: a new key would make every row
   * unreadable, so none is made over an existing store.
   */
  static open(files: RowEncryptedSecretStoreFiles): RowEncryptedSecretStore {
    const { dbFile, keyFile } = files;
    if (path.resolve(path.dirname(dbFile)) === path.resolve(path.dirname(keyFile)))
      throw new SecretStoreError(
        'unavailable',
        'The data key of the secret store must be kept in another folder than its database.',
      );
    const dbExists = existsSync(dbFile);
    if (dbExists && !existsSync(keyFile))
      throw new SecretStoreError(
        'unavailable',
        `The secret store ${dbFile} exists but its data key ${keyFile} is missing. Restore the key file ` +
          'from the backup taken together with the store. Framewright does not make a new key over an ' +
          'existing store: every session, recovery reference and the readUrl signing key would be lost. ' +
          'The store was left as it is.',
      );
    const dataKey = loadOrCreateKey(keyFile);
    mkdirSync(path.dirname(dbFile), { recursive: true, mode: 0o700 });
    chmodSync(path.dirname(dbFile), 0o700);
    // created 0600 before SQLite opens it: its -wal and -shm files take the database's mode
    if (!dbExists) closeSync(openSync(dbFile, 'a', 0o600));
    chmodSync(dbFile, 0o600);
    const db = openDatabase(dbFile);
    try {
      db.exec(`
        CREATE TABLE IF NOT EXISTS store_meta (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS secrets (
          name BLOB PRIMARY KEY,
          family BLOB NOT NULL,
          iv BLOB NOT NULL,
          tag BLOB NOT NULL,
          data BLOB NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS secrets_by_family ON secrets (family);
      `);
      const check = createHmac('sha256', subkey(dataKey, 'key check')).update(KEY_CHECK_LABEL).digest();
      const stored = db
        .prepare<[], { value: Buffer }>("SELECT value FROM store_meta WHERE key = 'key_check'")
        .get();
      if (!stored) {
        const rows = db.prepare<[], { n: number }>('SELECT count(*) AS n FROM secrets').get()!.n;
        if (rows > 0) throw keyMismatch(dbFile, keyFile);
        db.prepare("INSERT INTO store_meta (key, value) VALUES ('key_check', ?)").run(check);
      } else if (stored.value.length !== check.length || !timingSafeEqual(stored.value, check)) {
        throw keyMismatch(dbFile, keyFile);
      }
      return new RowEncryptedSecretStore(db, dbFile, dataKey);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  private hmac(text: string): Buffer {
    return createHmac('sha256', this.nameKey).update(text, 'utf8').digest();
  }

  private family(name: string): Buffer {
    const colon = name.indexOf(':');
    return this.hmac(`family\0${colon >= 0 ? name.slice(0, colon + 1) : name}`);
  }

  private decrypt(nameHmac: Buffer, family: Buffer, row: Row): { name: string; value: string } {
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.encryptionKey, row.iv);
      decipher.setAAD(Buffer.concat([nameHmac, family]));
      decipher.setAuthTag(row.tag);
      const plain = Buffer.concat([decipher.update(row.data), decipher.final()]).toString('utf8');
      const [name, value] = JSON.parse(plain) as [string, string];
      if (typeof name !== 'string' || typeof value !== 'string') throw new Error('not an entry');
      return { name, value };
    } catch {
      throw new SecretStoreError(
        'backend-failed',
        `A row of the secret store ${this.dbFile} does not decrypt with its data key (the row was changed, ` +
          'or the key file is not the one of this store); it was left as it is.',
      );
    }
  }

  async get(name: string): Promise<string | undefined> {
    checkProfileId(name);
    const known = this.memory.get(name);
    if (known !== undefined) return known;
    const nameHmac = this.hmac(name);
    const row = this.selectRow.get(nameHmac);
    if (!row) return undefined;
    const entry = this.decrypt(nameHmac, this.family(name), row);
    if (entry.name !== name) throw this.decryptFailure();
    this.memory.set(name, entry.value);
    return entry.value;
  }

  async set(name: string, secret: string): Promise<void> {
    checkProfileId(name);
    const value = normaliseSecret(secret);
    durably(this.db, () => this.write(name, value));
    await whenDurable(this.db);
  }

  private write(name: string, value: string): void {
    const nameHmac = this.hmac(name);
    const family = this.family(name);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.encryptionKey, iv);
    cipher.setAAD(Buffer.concat([nameHmac, family]));
    const data = Buffer.concat([cipher.update(JSON.stringify([name, value]), 'utf8'), cipher.final()]);
    this.upsertRow.run({ name: nameHmac, family, iv, tag: cipher.getAuthTag(), data });
    this.memory.set(name, value);
  }

  async delete(name: string): Promise<boolean> {
    checkProfileId(name);
    const nameHmac = this.hmac(name);
    // nothing to delete: no write transaction (forgetting an absent reference costs one read)
    if (!this.memory.has(name) && !this.selectRow.get(nameHmac)) return false;
    const changes = durably(this.db, () => this.deleteRow.run(nameHmac).changes);
    this.memory.delete(name);
    await whenDurable(this.db);
    return changes > 0;
  }

  async has(name: string): Promise<boolean> {
    return (await this.get(name)) !== undefined;
  }

  /** The names of one family's rows that start with `prefix` (the family: `prefix` up to its first `:`). */
  async namesWithPrefix(prefix: string): Promise<string[]> {
    if (!prefix.includes(':'))
      throw new RangeError('A prefix names a family of entries: it must contain its first ":".');
    const family = this.family(prefix);
    const names: string[] = [];
    for (const row of this.selectFamily.all(family)) {
      const entry = this.decrypt(row.name, row.family, row);
      if (!entry.name.startsWith(prefix)) continue;
      this.memory.set(entry.name, entry.value);
      names.push(entry.name);
    }
    return names;
  }

  /**
   * Stores every entry whose name the store does not hold yet, in one transaction (the migration
   * of an earlier secret file: a value already here is newer and is kept). Returns how many.
   */
  importMissing(entries: Readonly<Record<string, string>>): number {
    let imported = 0;
    // one commit at start-up, before the earlier file is given up: synced inside COMMIT
    this.db.pragma('synchronous = FULL');
    try {
      this.db.transaction(() => {
        for (const [name, value] of Object.entries(entries)) {
          checkProfileId(name);
          if (this.selectRow.get(this.hmac(name))) continue;
          this.write(name, normaliseSecret(value));
          imported += 1;
        }
      })();
    } finally {
      this.db.pragma('synchronous = NORMAL');
    }
    return imported;
  }

  describe(): SecretStoreDescription {
    return {
      backend: 'encrypted-rows',
      detail: "SQLite rows, each AES-256-GCM under the backend's own data key",
      canStore: true,
    };
  }

  close(): void {
    this.memory.clear();
    if (this.db.open) this.db.close();
  }

  private decryptFailure(): SecretStoreError {
    return new SecretStoreError(
      'backend-failed',
      `A row of the secret store ${this.dbFile} does not belong to its name (the file was changed); it was left as it is.`,
    );
  }
}

function subkey(dataKey: Buffer, purpose: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', dataKey, Buffer.alloc(0), `framewright secret store v1 ${purpose}`, 32),
  );
}

function keyMismatch(dbFile: string, keyFile: string): SecretStoreError {
  return new SecretStoreError(
    'unavailable',
    `The data key ${keyFile} is not the key of the secret store ${dbFile} (another key file, or the store ` +
      'was changed). Restore the key file backed up with this store; the store was left as it is.',
  );
}

/** Reads the data key, or makes one: written to a temporary file, fsynced, then linked (never over another). */
function loadOrCreateKey(keyFile: string): Buffer {
  const folder = path.dirname(keyFile);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(folder, 0o700);
  if (!existsSync(keyFile)) {
    const temp = `${keyFile}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, `${randomBytes(KEY_BYTES).toString('base64')}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(temp, keyFile);
    } catch (error) {
      // another start made it at the same moment: theirs is the key
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(temp, { force: true });
    }
    const dir = openSync(folder, 'r');
    try {
      fsyncSync(dir);
    } finally {
      closeSync(dir);
    }
  }
  chmodSync(keyFile, 0o600);
  const match = KEY_FILE_LINE.exec(readFileSync(keyFile, 'utf8'));
  const key = match ? Buffer.from(match[1]!, 'base64') : undefined;
  if (!key || key.length !== KEY_BYTES)
    throw new SecretStoreError(
      'unavailable',
      `The data key file ${keyFile} does not hold a key of this store (32 bytes, base64); it was left as it is.`,
    );
  return key;
}
