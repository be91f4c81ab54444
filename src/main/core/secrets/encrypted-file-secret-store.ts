import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import {
  SecretStoreError,
  checkProfileId,
  normaliseSecret,
  type SecretNames,
  type SecretStore,
  type SecretStoreDescription,
} from './secret-store.js';

/** The stored file: one AES-256-GCM envelope over the JSON map of every entry. */
interface Envelope {
  v: 1;
  salt: string;
  iv: string;
  tag: string;
  data: string;
}

const HKDF_INFO = 'framewright encrypted-file secret store v1';

/**
 * The platform backend's earlier secret store, now only read once at start to import it into the
 * {@link RowEncryptedSecretStore} (see legacy-secret-file.ts): every secret of the spec the backend
 * must keep across a restart (`runtime-session:<id>`, `job-recovery-ref:<journal job id>`) in one
 * file, encrypted with AES-256-GCM under a key derived with HKDF-SHA256 from the application
 * credential (`PLATFORM_APP_CREDENTIAL`) and a random salt per write. The file is mode 0600, written
 * atomically (temporary file, then rename), and its bytes contain no secret and no entry name.
 * A file that does not decrypt (another credential, tampering) is refused, never overwritten.
 */
export class EncryptedFileSecretStore implements SecretStore, SecretNames {
  /** Writes one after another, so no update is lost. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly filePath: string,
    private readonly appCredential: string,
  ) {
    if (!appCredential)
      throw new SecretStoreError(
        'unavailable',
        'The encrypted secret store needs the application credential.',
      );
  }

  private key(salt: Buffer): Buffer {
    return Buffer.from(hkdfSync('sha256', this.appCredential, salt, HKDF_INFO, 32));
  }

  private async readAll(): Promise<Record<string, string>> {
    let text: string;
    try {
      text = await readFile(this.filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new SecretStoreError(
        'backend-failed',
        `The secret file could not be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
      );
    }
    try {
      const envelope = JSON.parse(text) as Envelope;
      const salt = Buffer.from(envelope.salt, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', this.key(salt), Buffer.from(envelope.iv, 'base64'));
      decipher.setAuthTag(Buffer.from(envelope.tag, 'base64'));
      const plain = Buffer.concat([decipher.update(Buffer.from(envelope.data, 'base64')), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as Record<string, string>;
    } catch {
      throw new SecretStoreError(
        'backend-failed',
        'The secret file does not decrypt with this application credential (another credential, or the file was changed); it was left as it is.',
      );
    }
  }

  private async writeAll(entries: Record<string, string>): Promise<void> {
    const salt = randomBytes(16);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key(salt), iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(entries), 'utf8'), cipher.final()]);
    const envelope: Envelope = {
      v: 1,
      salt: salt.toString('base64'),
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
    await mkdir(path.dirname(this.filePath), { recursive: true, mode: 0o700 });
    const temp = `${this.filePath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(JSON.stringify(envelope));
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await chmod(temp, 0o600);
      await rename(temp, this.filePath);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  async get(name: string): Promise<string | undefined> {
    checkProfileId(name);
    return this.serial(async () => (await this.readAll())[name]);
  }

  async set(name: string, secret: string): Promise<void> {
    checkProfileId(name);
    const value = normaliseSecret(secret);
    await this.serial(async () => {
      const entries = await this.readAll();
      entries[name] = value;
      await this.writeAll(entries);
    });
  }

  async delete(name: string): Promise<boolean> {
    checkProfileId(name);
    return this.serial(async () => {
      const entries = await this.readAll();
      if (!(name in entries)) return false;
      delete entries[name];
      await this.writeAll(entries);
      return true;
    });
  }

  async has(name: string): Promise<boolean> {
    return (await this.get(name)) !== undefined;
  }

  /** Every entry of the file (none when there is no file); refused when it does not decrypt. */
  entries(): Promise<Record<string, string>> {
    return this.serial(() => this.readAll());
  }

  async namesWithPrefix(prefix: string): Promise<string[]> {
    return Object.keys(await this.entries()).filter((name) => name.startsWith(prefix));
  }

  describe(): SecretStoreDescription {
    return {
      backend: 'encrypted-file',
      detail: 'AES-256-GCM file keyed by the application credential',
      canStore: true,
    };
  }
}
