import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError } from '../errors.js';
import { hostIsOneOf, SERVER_OPTIONS, withServerLimits } from '../process/server-limits.js';
import { isLoopbackHost } from '../journal/profiles-repository.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { ObjectStorage, type StoredObject } from './object-storage.js';
import { serveSignedObject } from './serve-signed-object.js';
import { ReadUrlKeys } from './read-url-keys.js';
import { signReadUrl } from './signed-read-url.js';

/** A public address that reaches this computer's share (e.g. a tunnel's): then films are signed for it. */
export const SHARE_ORIGIN_ENV = 'FRAMEWRIGHT_SHARE_ORIGIN';
/** The loopback port of the share (default: any free one). */
export const SHARE_PORT_ENV = 'FRAMEWRIGHT_SHARE_PORT';

export interface LocalObjectShareDeps {
  /** `<dataDir>/shared-objects`: the files handed to another application, content-addressed. */
  root: string;
  /** Holds the signing key (the same entry the platform deployment uses for its readUrls). */
  secrets: Pick<SecretStore, 'get' | 'set' | 'delete'>;
  /** Names this machine's share in its URLs (32 hex, from the data folder; not a secret). */
  subjectKey: string;
  env?: NodeJS.ProcessEnv;
}

/**
 * Files this computer hands to another application (a film sent to a Storyboard Helper board from
 * a debug profile): stored content-addressed under the data folder and served, GET and HEAD only,
 * to whoever holds a signed, expiring URL — by a loopback server started on the first share, or
 * behind the public address `FRAMEWRIGHT_SHARE_ORIGIN` names. Nothing else of the studio is served.
 */
export class LocalObjectShare {
  private readonly storage: ObjectStorage;
  private started: Promise<{ origin: string; key: ReadUrlKeys; server: http.Server }> | undefined;

  constructor(private readonly d: LocalObjectShareDeps) {
    this.storage = new ObjectStorage(d.root);
  }

  putFile(localPath: string): Promise<StoredObject> {
    return this.storage.putFile(localPath);
  }

  /** The origin its URLs are signed for (starting the loopback server if needed). */
  async origin(): Promise<string> {
    return (await this.start()).origin;
  }

  /** Ends every URL this share signed so far (new ones are signed under the next epoch). */
  async revokeAll(): Promise<void> {
    await (await this.keys()).revokeSubject(this.d.subjectKey);
  }

  /** A signed URL of a stored object, readable until `expiresAt`. */
  async readUrlFor(sha256: string, expiresAt: Date): Promise<string> {
    const { origin, key } = await this.start();
    return signReadUrl(key, { publicOrigin: origin, subjectKey: this.d.subjectKey, sha256, expiresAt });
  }

  async close(): Promise<void> {
    const started = await this.started?.catch(() => undefined);
    this.started = undefined;
    if (!started) return;
    started.server.closeAllConnections();
    await new Promise<void>((resolve) => started.server.close(() => resolve()));
  }

  private keysLoading: Promise<ReadUrlKeys> | undefined;

  /** The signing keys, loaded once (also without the server: a revocation needs no listener). */
  private keys(): Promise<ReadUrlKeys> {
    this.keysLoading ??= ReadUrlKeys.load(this.d.secrets as SecretStore);
    this.keysLoading.catch(() => (this.keysLoading = undefined));
    return this.keysLoading;
  }

  private start() {
    this.started ??= this.listen();
    this.started.catch(() => (this.started = undefined));
    return this.started;
  }

  private async listen() {
    const env = this.d.env ?? process.env;
    const key = await this.keys();
    const publicOrigin = shareOrigin(env[SHARE_ORIGIN_ENV]);
    let ownHosts: string[] = [];
    const server = withServerLimits(
      http.createServer(SERVER_OPTIONS, (req, res) => {
        // only requests addressed to this share: its loopback address, or the public origin that
        // forwards to it (a DNS-rebinding page addresses another name)
        if (!hostIsOneOf(req.headers.host, ownHosts)) {
          req.resume();
          res
            .writeHead(421, { 'Content-Type': 'text/plain', Connection: 'close' })
            .end('Misdirected request');
          return;
        }
        void serveSignedObject(req, res, {
          signingKey: key,
          storageFor: (subjectKey) => (subjectKey === this.d.subjectKey ? this.storage : undefined),
        });
      }),
    );
    const port = Number(env[SHARE_PORT_ENV] ?? 0);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(Number.isInteger(port) && port >= 0 ? port : 0, '127.0.0.1', () => resolve());
    });
    const { port: bound } = server.address() as AddressInfo;
    const loopback = `http://127.0.0.1:${bound}`;
    ownHosts = [
      `127.0.0.1:${bound}`,
      `localhost:${bound}`,
      ...(publicOrigin ? [new URL(publicOrigin).host] : []),
    ];
    return { origin: publicOrigin ?? loopback, key, server };
  }
}

/** The configured public origin, checked: an http(s) origin without a path. */
function shareOrigin(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new AppError('storyboards.share_origin_invalid', `${SHARE_ORIGIN_ENV} is not an address.`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search)
    throw new AppError(
      'storyboards.share_origin_invalid',
      `${SHARE_ORIGIN_ENV} must be an http(s) origin without a path.`,
    );
  return url.origin;
}

/** A share's subject key: a stable name of this data folder (not a secret: the signature is). */
export function shareSubjectKey(dataDir: string): string {
  return createHash('sha256').update(`framewright-share\n${dataDir}`).digest('hex').slice(0, 32);
}

/** Whether an address is of this computer (loopback): only a reader on this computer can use it. */
export function isLoopbackAddress(address: string): boolean {
  return isLoopbackHost(new URL(address).hostname);
}
