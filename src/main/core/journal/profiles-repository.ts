import { randomUUID } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import { JournalNotFoundError } from './errors.js';
import { opt } from './json.js';

export type ProfileKind = 'simulator' | 'personal' | 'debug';
/** The key stores that keep secrets (the journal records which one holds each profile's key). */
export type StoredSecretBackend = 'keytar' | 'safe-storage';
export const PROFILE_KINDS: readonly ProfileKind[] = ['simulator', 'personal', 'debug'];

/** A profile as the journal knows it. It never holds the key or token: only whether one is set. */
export interface Profile {
  readonly id: string;
  readonly name: string;
  readonly kind: ProfileKind;
  /** Base URL including `/v1`; absent for the embedded simulator. */
  readonly baseUrl?: string;
  /** The secret store holds a key (personal) or token (debug) for this profile. */
  readonly hasSecret: boolean;
  /** Debug profiles: expiry of the short-lived debug token (epoch ms). */
  readonly debugTokenExpiresAt?: number;
  /**
   * The key store holding the secret, recorded when it was stored; absent when there is none or
   * it was stored before the journal recorded it.
   */
  readonly secretBackend?: StoredSecretBackend;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface NewProfile {
  /** Defaults to a random UUID. Used as the secret store account. */
  readonly id?: string;
  readonly name: string;
  readonly kind: ProfileKind;
  readonly baseUrl?: string;
  readonly debugTokenExpiresAt?: number;
}

export interface ProfilePatch {
  readonly name?: string;
  readonly baseUrl?: string;
  readonly debugTokenExpiresAt?: number | null;
}

/** A profile still owns jobs, intents or optimizations and cannot be deleted. */
export class ProfileInUseError extends Error {
  constructor(readonly profileId: string) {
    super(
      `The profile "${profileId}" still owns jobs or prompt optimizations in the journal; their results ` +
        `can only be read with this profile, so it cannot be deleted.`,
    );
    this.name = 'ProfileInUseError';
  }
}

interface ProfileRow {
  id: string;
  name: string;
  kind: ProfileKind;
  base_url: string | null;
  has_secret: number;
  debug_token_expires_at: number | null;
  secret_backend: StoredSecretBackend | null;
  created_at: number;
  updated_at: number;
}

/**
 * localhost, 127.0.0.0/8 and ::1: the only hosts a key may be sent to over plain http. A name
 * *under* localhost (`app.localhost`) is not one: whether it resolves to this machine depends on
 * the resolver (a DNS server may answer it with any address), so a key could leave in clear.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Checks and normalises a base URL: https (plain http only to this machine: a bearer key sent in
 * clear over a network can be read by anyone on the way), no user info, query or fragment (a key
 * must never hide in a URL), no trailing slash.
 */
export function normaliseBaseUrl(input: string): string {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new RangeError(
      'The base URL is not a valid absolute URL (expected e.g. https://api.example.com/v1).',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new RangeError(`The base URL must use http or https (got ${url.protocol}).`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new RangeError(
      `The base URL must use https for ${url.hostname}: over plain http the key would cross the network ` +
        `readable by anyone on the way (http is accepted only for this machine: localhost, 127.0.0.1, ::1).`,
    );
  }
  if (url.username || url.password) {
    throw new RangeError('The base URL must not contain a user name or password; keys go in the keychain.');
  }
  if (url.search || url.hash) {
    throw new RangeError('The base URL must not contain a query string or fragment.');
  }
  return url.toString().replace(/\/+$/, '');
}

function toProfile(row: ProfileRow): Profile {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    baseUrl: opt(row.base_url),
    hasSecret: row.has_secret === 1,
    debugTokenExpiresAt: opt(row.debug_token_expires_at),
    secretBackend: opt(row.secret_backend),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 100) throw new RangeError('A profile name must be 1 to 100 characters.');
  return trimmed;
}

/** Runs an insert/update, turning a name clash into an error a user can act on. */
function uniqueName(name: string, write: () => unknown): void {
  try {
    write();
  } catch (error) {
    const { code, message } = error as { code?: string; message?: string };
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' && message?.includes('profiles.name')) {
      throw new RangeError(
        `A profile named "${name}" already exists (names ignore case); choose another name.`,
      );
    }
    throw error;
  }
}

export class ProfilesRepository {
  private readonly insertStmt: Statement;
  private readonly byIdStmt: Statement<[string], ProfileRow>;
  private readonly byNameStmt: Statement<[string], ProfileRow>;
  private readonly listStmt: Statement<[], ProfileRow>;
  private readonly updateStmt: Statement;
  private readonly setSecretStmt: Statement;
  private readonly replaceCredentialStmt: Statement;
  private readonly deleteStmt: Statement<[string]>;
  private readonly inUseStmt: Statement<[string, string, string]>;

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.insertStmt = db.prepare(
      `INSERT INTO profiles (id, name, kind, base_url, has_secret, debug_token_expires_at, created_at, updated_at)
       VALUES (@id, @name, @kind, @baseUrl, 0, @debugTokenExpiresAt, @now, @now)`,
    );
    this.byIdStmt = db.prepare('SELECT * FROM profiles WHERE id = ?');
    this.byNameStmt = db.prepare('SELECT * FROM profiles WHERE name = ?');
    this.listStmt = db.prepare('SELECT * FROM profiles ORDER BY name COLLATE NOCASE, id');
    this.updateStmt = db.prepare(
      `UPDATE profiles SET name = @name, base_url = @baseUrl, debug_token_expires_at = @debugTokenExpiresAt,
       updated_at = @now WHERE id = @id`,
    );
    this.setSecretStmt = db.prepare(
      `UPDATE profiles SET has_secret = @hasSecret,
         debug_token_expires_at = CASE WHEN @touchExpiry THEN @debugTokenExpiresAt ELSE debug_token_expires_at END,
         secret_backend = CASE WHEN @touchBackend THEN @secretBackend ELSE secret_backend END,
         updated_at = @now
       WHERE id = @id`,
    );
    this.replaceCredentialStmt = db.prepare(
      `UPDATE profiles SET base_url = @baseUrl, has_secret = 1, debug_token_expires_at = @debugTokenExpiresAt,
         secret_backend = @secretBackend, updated_at = @now
       WHERE id = @id`,
    );
    this.deleteStmt = db.prepare('DELETE FROM profiles WHERE id = ?');
    this.inUseStmt = db.prepare(
      `SELECT EXISTS (SELECT 1 FROM job_intents WHERE profile_id = ?)
           OR EXISTS (SELECT 1 FROM prompt_optimizations WHERE profile_id = ?)
           OR EXISTS (SELECT 1 FROM jobs WHERE profile_id = ?) AS in_use`,
    );
  }

  create(input: NewProfile): Profile {
    if (!PROFILE_KINDS.includes(input.kind))
      throw new RangeError(`Unknown profile kind "${String(input.kind)}".`);
    if (input.kind !== 'simulator' && !input.baseUrl) {
      throw new RangeError(`A ${input.kind} profile needs a base URL including /v1.`);
    }
    if (input.kind !== 'debug' && input.debugTokenExpiresAt !== undefined) {
      throw new RangeError('Only debug profiles have a token expiry.');
    }
    const id = input.id ?? randomUUID();
    const name = checkName(input.name);
    const params = {
      id,
      name,
      kind: input.kind,
      baseUrl: input.baseUrl === undefined ? null : normaliseBaseUrl(input.baseUrl),
      debugTokenExpiresAt: input.debugTokenExpiresAt ?? null,
      now: this.now(),
    };
    uniqueName(name, () => this.insertStmt.run(params));
    return this.require(id);
  }

  get(id: string): Profile | undefined {
    const row = this.byIdStmt.get(id);
    return row && toProfile(row);
  }

  /** Names are unique without regard to case. */
  getByName(name: string): Profile | undefined {
    const row = this.byNameStmt.get(name.trim());
    return row && toProfile(row);
  }

  require(id: string): Profile {
    const profile = this.get(id);
    if (!profile) throw new JournalNotFoundError(`The profile "${id}"`);
    return profile;
  }

  list(): Profile[] {
    return this.listStmt.all().map(toProfile);
  }

  update(id: string, patch: ProfilePatch): Profile {
    const current = this.require(id);
    if (patch.debugTokenExpiresAt != null && current.kind !== 'debug') {
      throw new RangeError('Only debug profiles have a token expiry.');
    }
    if (current.kind !== 'simulator' && patch.baseUrl === '')
      throw new RangeError('The base URL cannot be removed.');
    const name = patch.name === undefined ? current.name : checkName(patch.name);
    uniqueName(name, () =>
      this.updateStmt.run({
        id,
        name,
        baseUrl: patch.baseUrl === undefined ? (current.baseUrl ?? null) : normaliseBaseUrl(patch.baseUrl),
        debugTokenExpiresAt:
          patch.debugTokenExpiresAt === undefined
            ? (current.debugTokenExpiresAt ?? null)
            : patch.debugTokenExpiresAt,
        now: this.now(),
      }),
    );
    return this.require(id);
  }

  /**
   * Records whether the secret store holds a secret for the profile (called by the credentials
   * layer after it wrote or deleted the secret). `debugTokenExpiresAt` updates the expiry too;
   * `secretBackend` the store that holds it (null: none).
   */
  setHasSecret(
    id: string,
    hasSecret: boolean,
    debugTokenExpiresAt?: number | null,
    secretBackend?: StoredSecretBackend | null,
  ): Profile {
    const result = this.setSecretStmt.run({
      id,
      hasSecret: hasSecret ? 1 : 0,
      touchExpiry: debugTokenExpiresAt === undefined ? 0 : 1,
      debugTokenExpiresAt: debugTokenExpiresAt ?? null,
      touchBackend: secretBackend === undefined ? 0 : 1,
      secretBackend: secretBackend ?? null,
      now: this.now(),
    });
    if (result.changes === 0) throw new JournalNotFoundError(`The profile "${id}"`);
    return this.require(id);
  }

  /**
   * After a new secret was stored: the base URL, the expiry (debug profiles) and the store that
   * holds the secret change together in one statement, so the row never points the old key at a
   * new URL.
   */
  replaceCredential(
    id: string,
    change: { baseUrl: string; debugTokenExpiresAt?: number; secretBackend: StoredSecretBackend },
  ): Profile {
    const current = this.require(id);
    if (current.kind === 'simulator') throw new RangeError('The local simulator has no credential.');
    if (change.debugTokenExpiresAt !== undefined && current.kind !== 'debug') {
      throw new RangeError('Only debug profiles have a token expiry.');
    }
    this.replaceCredentialStmt.run({
      id,
      baseUrl: normaliseBaseUrl(change.baseUrl),
      debugTokenExpiresAt: change.debugTokenExpiresAt ?? null,
      secretBackend: change.secretBackend,
      now: this.now(),
    });
    return this.require(id);
  }

  /** Whether jobs, intents or optimizations still refer to the profile. */
  isInUse(id: string): boolean {
    const row = this.inUseStmt.get(id, id, id) as { in_use: number };
    return row.in_use === 1;
  }

  /**
   * Deletes a profile that owns no jobs (its uploads and discovery cache go with it).
   * Returns false when there was no such profile. Deleting the secret is the credentials layer's job.
   */
  delete(id: string): boolean {
    return this.db
      .transaction(() => {
        if (this.isInUse(id)) throw new ProfileInUseError(id);
        return this.deleteStmt.run(id).changes > 0;
      })
      .immediate();
  }
}
