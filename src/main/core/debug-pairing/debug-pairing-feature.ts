import { randomUUID } from 'node:crypto';
import { AppError } from '../errors.js';
import { normaliseBaseUrl, type Profile } from '../journal/profiles-repository.js';
import type { ProfileCredentials } from '../secrets/profile-credentials.js';
import { SecretStoreError, type SecretStore } from '../secrets/secret-store.js';
import { DebugDirectory } from './debug-directory.js';
import { DebugSessions, type DebugBinding } from './debug-sessions.js';
import { DeveloperApi, type FetchLike, type TestAccount } from './developer-api.js';
import { listenForRedirect } from './loopback-redirect.js';
import { newPairingState, newPkcePair } from './pkce.js';

/** What the pairing needs from the core: nothing else reaches it. */
export interface DebugPairingDeps {
  readonly secrets: Pick<SecretStore, 'get' | 'set' | 'delete' | 'describe'>;
  readonly credentials: Pick<ProfileCredentials, 'createProfile' | 'replaceCredential'>;
  /** The profile of that name, without regard to case. */
  byName(name: string): Profile | undefined;
  get(profileId: string): Profile | undefined;
  /** The profile's token for a request, its expiry checked first (the profile directory's identity). */
  tokenFor?(profileId: string): Promise<string>;
  readonly now?: () => number;
  readonly fetch?: FetchLike;
}

export interface PairingRequest {
  /** The debug profile to create (or pair again). */
  readonly profileName: string;
  /** `{developer_base_url}` of section E. */
  readonly developerBaseUrl: string;
  /** The developer portal page that approves a pairing; default `{origin}/platform/developer-portal`. */
  readonly portalUrl?: string;
  readonly appId: string;
  /** Online debugging is bound to one version (required by the spec). */
  readonly versionId: string;
  /** A test account of the application's list, by its display name or its record id (never a user id). */
  readonly testAccount?: string;
  /**
   * The developer's portal session, needed only to read the test-account list (and then used to
   * check the version first); never stored.
   */
  readonly developerToken?: string;
  /** How long to wait for the approval (default 5 minutes, the code's own lifetime). */
  readonly timeoutMs?: number;
}

export interface PairingStarted {
  readonly pairingId: string;
  /** The portal page to open, with the pairing parameters (the challenge, never the verifier). */
  readonly portalUrl: string;
  readonly redirectUri: string;
  readonly testAccount: { id: string; displayName: string; organizationName: string } | null;
}

/** A paired debug profile as the studio and the CLI show it (no token, no runtime session id). */
export interface DebugSessionView {
  readonly profileId: string;
  readonly profileName: string;
  readonly appId: string;
  readonly appKey: string;
  readonly appVersionId: string;
  /** null: the developer's own identity. */
  readonly testAccount: { id: string; displayName: string; organizationName: string } | null;
  /** Calls really charge the chosen account (spec section B). */
  readonly billed: true;
  readonly expiresAt: number;
  readonly expired: boolean;
  readonly runtimeBaseUrl: string;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

function checkedUrl(value: string, what: string): string {
  try {
    return normaliseBaseUrl(value);
  } catch (error) {
    throw new AppError('usage', `${what}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The default portal page: the platform's (and the simulator's) layout beside the developer API. */
export function defaultPortalUrl(developerBaseUrl: string): string {
  return new URL('/platform/developer-portal', developerBaseUrl).toString();
}

/**
 * `framewright login --debug` and the studio's "Pair for debugging": the PKCE pairing of
 * application-platform-api.md section E. A fresh verifier and its S256 challenge, a loopback
 * redirect listener, the developer's approval in the portal page, the code received once and
 * exchanged with the verifier for a 1-hour CLI session, stored as a debug profile (token and
 * binding in the OS keychain, expiry and debug runtime address in the journal). The verifier and
 * the code live only in this process's memory.
 */
export class DebugPairingFeature {
  private readonly sessions: DebugSessions;
  private readonly pending = new Map<string, Promise<Profile>>();
  private readonly cancels = new Map<string, () => void>();

  constructor(private readonly deps: DebugPairingDeps) {
    this.sessions = new DebugSessions(deps.secrets);
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** The application's test accounts (the developer's session reads them). */
  testAccounts(developerBaseUrl: string, appId: string, developerToken: string): Promise<TestAccount[]> {
    return new DeveloperApi(checkedUrl(developerBaseUrl, '--developer-url'), this.deps.fetch).testAccounts(
      appId,
      developerToken,
    );
  }

  /**
   * Checks everything that can be checked before the developer is asked (the profile name, the
   * key store, the addresses, the test account by name, the version), then listens and returns the
   * portal page to open. `wait(pairingId)` gives the stored profile.
   */
  async start(request: PairingRequest): Promise<PairingStarted> {
    const name = request.profileName.trim();
    if (!name) throw new AppError('usage', 'A debug profile needs a name (--profile NAME).');
    const existing = this.deps.byName(name);
    if (existing && existing.kind !== 'debug') {
      throw new AppError(
        'usage',
        `The profile "${existing.name}" is a ${existing.kind} profile; a pairing is stored only in a debug profile (credentials of different kinds are never mixed).`,
      );
    }
    if (!request.appId.trim()) throw new AppError('usage', 'The pairing needs the application id (--app).');
    if (!request.versionId.trim())
      throw new AppError('usage', 'Online debugging is bound to one version: give it (--app-version).');
    const keyStore = this.deps.secrets.describe();
    if (!keyStore.canStore) throw new SecretStoreError('unavailable', keyStore.detail);
    const developerBaseUrl = checkedUrl(request.developerBaseUrl, '--developer-url');
    const portal = new URL(
      checkedUrl(request.portalUrl ?? defaultPortalUrl(developerBaseUrl), '--portal-url'),
    );
    const api = new DeveloperApi(developerBaseUrl, this.deps.fetch);

    let testAccount: TestAccount | undefined;
    if (request.testAccount !== undefined) {
      if (!request.developerToken) {
        throw new AppError(
          'pairing.no_developer_token',
          "Choosing a test account reads the application's test-account list with your developer portal session: give it with --developer-token-file FILE or FRAMEWRIGHT_DEVELOPER_TOKEN. Nothing was sent.",
        );
      }
      const accounts = await api.testAccounts(request.appId, request.developerToken);
      testAccount = chooseTestAccount(accounts, request.testAccount, request.appId);
    }
    if (request.developerToken) {
      try {
        await api.version(request.appId, request.versionId, request.developerToken);
      } catch (error) {
        if (
          error instanceof AppError &&
          error.code === 'pairing.refused' &&
          (error.details as { status?: number })?.status === 404
        )
          throw new AppError(
            'pairing.version_unknown',
            `"${request.versionId}" is not a version of application ${request.appId}; nothing was paired.`,
          );
        throw error;
      }
    }

    const { verifier, challenge } = newPkcePair();
    const state = newPairingState();
    const redirect = await listenForRedirect({ state, timeoutMs: request.timeoutMs ?? DEFAULT_TIMEOUT_MS });
    const params: Record<string, string> = {
      appId: request.appId,
      codeChallenge: challenge,
      codeChallengeMethod: 'S256',
      redirectUri: redirect.redirectUri,
      versionId: request.versionId,
      ...(testAccount ? { testAccountId: testAccount.id } : {}),
      state,
    };
    for (const [k, v] of Object.entries(params)) portal.searchParams.set(k, v);

    const pairingId = randomUUID();
    const view = testAccount
      ? {
          id: testAccount.id,
          displayName: testAccount.displayName,
          organizationName: testAccount.organizationName,
        }
      : null;
    const completed = redirect.code
      .then((code) => api.exchange(code, verifier))
      .then(async (session) => {
        const runtimeBaseUrl = checkedUrl(session.runtimeBaseUrl, 'The CLI session’s runtime address');
        const expiresAt = Date.parse(session.expiresAt);
        const profile = await this.storeProfile(name, runtimeBaseUrl, session.accessToken, expiresAt);
        const binding: DebugBinding = {
          appId: session.appId,
          appKey: session.appKey,
          appVersionId: session.appVersionId,
          runtimeSessionId: session.runtimeSessionId,
          testAccount: view,
          runtimeBaseUrl,
          relayBaseUrl: session.relayBaseUrl ?? null,
          uploadBaseUrl: session.uploadBaseUrl ?? null,
          developerBaseUrl,
          scopes: session.scopes,
          expiresAt,
          pairedAt: this.now(),
        };
        await this.sessions.save(profile.id, binding);
        return profile;
      })
      .finally(() => {
        this.pending.delete(pairingId);
        this.cancels.delete(pairingId);
      });
    completed.catch(() => undefined);
    this.pending.set(pairingId, completed);
    this.cancels.set(pairingId, redirect.cancel);
    return { pairingId, portalUrl: portal.toString(), redirectUri: redirect.redirectUri, testAccount: view };
  }

  /** The stored debug profile once the developer approved and the code was exchanged. */
  wait(pairingId: string): Promise<Profile> {
    const pending = this.pending.get(pairingId);
    if (!pending) throw new AppError('pairing.not_found', 'No pairing of that id is in progress.');
    return pending;
  }

  cancel(pairingId: string): void {
    this.cancels.get(pairingId)?.();
  }

  /** Stops every pairing in progress (the core is closing): no listener outlives it. */
  cancelAll(): void {
    for (const cancel of [...this.cancels.values()]) cancel();
  }

  /** What a paired debug profile acts as and until when; null for other profiles. */
  async session(profileId: string): Promise<DebugSessionView | null> {
    const profile = this.deps.get(profileId);
    if (!profile || profile.kind !== 'debug') return null;
    const binding = await this.sessions.read(profileId);
    if (!binding) return null;
    const expiresAt = profile.debugTokenExpiresAt ?? binding.expiresAt;
    return {
      profileId,
      profileName: profile.name,
      appId: binding.appId,
      appKey: binding.appKey,
      appVersionId: binding.appVersionId,
      testAccount: binding.testAccount,
      billed: true,
      expiresAt,
      expired: expiresAt <= this.now(),
      runtimeBaseUrl: binding.runtimeBaseUrl,
    };
  }

  /** The binding itself (with the runtime session id), for section D's calls in this process. */
  binding(profileId: string): Promise<DebugBinding | undefined> {
    return this.sessions.read(profileId);
  }

  /**
   * Section D's directory of a paired, live debug profile's session (for the Team screen in
   * debugging), with the organization of its subject; undefined for any other profile.
   */
  async directoryFor(
    profileId: string,
  ): Promise<{ organizationId: string | undefined; directory: DebugDirectory } | undefined> {
    const profile = this.deps.get(profileId);
    if (!profile || profile.kind !== 'debug' || !this.deps.tokenFor) return undefined;
    if ((profile.debugTokenExpiresAt ?? 0) <= this.now()) return undefined;
    const binding = await this.sessions.read(profileId);
    if (!binding) return undefined;
    const tokenFor = this.deps.tokenFor;
    const directory = new DebugDirectory(binding, () => tokenFor(profileId), this.deps.fetch);
    return { organizationId: await directory.organizationId(), directory };
  }

  /** Forgets a removed profile's binding. */
  async forget(profileId: string): Promise<void> {
    await this.sessions.forget(profileId).catch(() => false);
  }

  private async storeProfile(
    name: string,
    baseUrl: string,
    token: string,
    expiresAt: number,
  ): Promise<Profile> {
    const existing = this.deps.byName(name);
    if (!existing) {
      return this.deps.credentials.createProfile({
        name,
        kind: 'debug',
        baseUrl,
        debugTokenExpiresAt: expiresAt,
        secret: token,
      });
    }
    if (existing.kind !== 'debug') {
      throw new AppError(
        'usage',
        `The profile "${existing.name}" is a ${existing.kind} profile; nothing was stored.`,
      );
    }
    return this.deps.credentials.replaceCredential(existing.id, {
      baseUrl,
      secret: token,
      debugTokenExpiresAt: expiresAt,
    });
  }
}

/**
 * A test account of the list, by display name (case-insensitive) or record id. A typed user
 * (account) id is refused: the spec takes only a record of the application's list.
 */
export function chooseTestAccount(
  accounts: readonly TestAccount[],
  choice: string,
  appId: string,
): TestAccount {
  const wanted = choice.trim().toLowerCase();
  const byId = accounts.find((a) => a.id.toLowerCase() === wanted);
  if (byId) return byId;
  const byName = accounts.filter((a) => a.displayName.trim().toLowerCase() === wanted);
  if (byName.length === 1) return byName[0]!;
  const listing = accounts.length
    ? accounts
        .map((a) => `"${a.displayName}"${a.organizationName ? ` (${a.organizationName})` : ''} [${a.id}]`)
        .join(', ')
    : 'none';
  if (byName.length > 1) {
    throw new AppError(
      'pairing.test_account_unknown',
      `Several test accounts of ${appId} are named "${choice}"; choose one by its record id: ${listing}. Nothing was paired.`,
    );
  }
  const isUserId = accounts.some((a) => a.accountId.toLowerCase() === wanted);
  throw new AppError(
    'pairing.test_account_unknown',
    isUserId
      ? `"${choice}" is a user id; a test account is chosen from the application's list by its name or record id: ${listing}. Nothing was paired.`
      : `No test account named "${choice}" on the test-account list of ${appId}; the list: ${listing}. Nothing was paired.`,
  );
}
