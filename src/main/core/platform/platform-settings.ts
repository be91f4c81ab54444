import { readFileSync } from 'node:fs';
import { mediaPriorityFromEnv, type MediaPriority } from '../media-tools/tool-priority.js';
import { parseTrustedProxies } from './client-address.js';

/**
 * The settings of `framewright serve --platform`, read from the environment the platform injects
 * (`PLATFORM_APP_*`) and from `FRAMEWRIGHT_PUBLIC_URL`, the origin users reach.
 *
 * Every problem is one line and all of them are reported at once; no line ever contains the
 * credential (only the names of the settings and, for a file, its path).
 */
export interface PlatformSettings {
  readonly runtimeBaseUrl: string;
  readonly sessionBaseUrl: string;
  readonly appKey: string;
  /** The platform-managed application credential: secret, kept in memory only. */
  readonly appCredential: string;
  /**
   * The credential before a rotation (`PLATFORM_APP_CREDENTIAL_PREVIOUS[_FILE]`), only to import an
   * earlier secret file written under it; the secret store itself never depends on a credential.
   */
  readonly previousAppCredential?: string;
  /** The public origin (`https://studio.example.com`), no path, query or trailing slash. */
  readonly publicOrigin: string;
  /** True when the public origin is https: cookies are `Secure` and `__Host-` prefixed. */
  readonly secureCookies: boolean;
  /** Limits per person and per session (absent: {@link DEFAULT_PLATFORM_LIMITS}). */
  readonly limits?: PlatformLimits;
  /**
   * Storyboard Helper's business address (`FRAMEWRIGHT_STORYBOARD_HELPER_URL`), where its business
   * requests go with a grant (issue 29). Absent: the capability `storyboards` is off.
   */
  readonly storyboardHelperUrl?: string;
  /**
   * The reverse proxies in front of the backend whose `X-Forwarded-For` names the real client
   * (`FRAMEWRIGHT_TRUSTED_PROXIES`, comma-separated addresses): sign-in limits then count each
   * person, not the proxy everyone shares. Empty: the peer address is the client.
   */
  readonly trustedProxies?: readonly string[];
  /**
   * The metrics' own port (`FRAMEWRIGHT_METRICS_PORT`), and the bearer token a scrape must send
   * (`FRAMEWRIGHT_METRICS_TOKEN`, optional; a secret). Unset: no metrics are served.
   */
  readonly metrics?: { port: number; token?: string };
  /** The media tools' CPU priority (`FRAMEWRIGHT_MEDIA_PRIORITY`; here `idle` unless set). */
  readonly mediaPriority?: MediaPriority;
}

/** What one person, and one browser session of theirs, may hold on the backend. */
export interface PlatformLimits {
  /** Bytes a person stores in all: staged and Playground files, stored objects, marked exports. */
  readonly storageBytes: number;
  /** Files a person stores in all (the same folders). */
  readonly storageFiles: number;
  /** Uploads (`POST /bridge/files`) one session may send at once. */
  readonly uploadsPerSession: number;
  /** Bridge calls one session may have in flight at once (each body up to 12 MB). */
  readonly callsPerSession: number;
  /** Event sockets one session may hold open at once. */
  readonly socketsPerSession: number;
  /** A workspace with no request, no open socket and no unfinished job for this long is closed. */
  readonly idleWorkspaceSeconds: number;
  /** How often open workspaces' staging is swept and their unnamed objects collected. */
  readonly sweepIntervalSeconds: number;
  /** How long the drain at SIGTERM lets the requests in flight finish before stopping anyway. */
  readonly drainSeconds: number;
  /** Bridge calls one person may make per second, sustained (three seconds' worth at once). */
  readonly callsPerSecond: number;
}

/** The limits a team gets unless it sets them (docs/operators.md, "Settings"). */
export const DEFAULT_PLATFORM_LIMITS: PlatformLimits = {
  storageBytes: 20 * 1024 * 1024 * 1024,
  storageFiles: 10_000,
  uploadsPerSession: 4,
  callsPerSession: 16,
  socketsPerSession: 8,
  idleWorkspaceSeconds: 15 * 60,
  sweepIntervalSeconds: 60 * 60,
  drainSeconds: 25,
  callsPerSecond: 20,
};

/** Each limit's environment variable, with its unit as the variable reads it. */
const LIMIT_SETTINGS: readonly {
  name: string;
  key: keyof PlatformLimits;
  /** The variable's unit in the limit's unit (MiB → bytes). */
  scale: number;
}[] = [
  { name: 'FRAMEWRIGHT_STORAGE_QUOTA_MIB', key: 'storageBytes', scale: 1024 * 1024 },
  { name: 'FRAMEWRIGHT_STORAGE_QUOTA_FILES', key: 'storageFiles', scale: 1 },
  { name: 'FRAMEWRIGHT_UPLOADS_PER_SESSION', key: 'uploadsPerSession', scale: 1 },
  { name: 'FRAMEWRIGHT_CALLS_PER_SESSION', key: 'callsPerSession', scale: 1 },
  { name: 'FRAMEWRIGHT_SOCKETS_PER_SESSION', key: 'socketsPerSession', scale: 1 },
  { name: 'FRAMEWRIGHT_IDLE_WORKSPACE_SECONDS', key: 'idleWorkspaceSeconds', scale: 1 },
  { name: 'FRAMEWRIGHT_SWEEP_INTERVAL_SECONDS', key: 'sweepIntervalSeconds', scale: 1 },
  { name: 'FRAMEWRIGHT_DRAIN_SECONDS', key: 'drainSeconds', scale: 1 },
  { name: 'FRAMEWRIGHT_CALLS_PER_SECOND', key: 'callsPerSecond', scale: 1 },
];

/** The limits from the environment: each a positive whole number when set, else its default. */
function limitsOf(env: Env, problems: string[]): PlatformLimits {
  const limits: Record<keyof PlatformLimits, number> = { ...DEFAULT_PLATFORM_LIMITS };
  for (const { name, key, scale } of LIMIT_SETTINGS) {
    const raw = env[name]?.trim();
    if (!raw) continue;
    if (!/^[1-9][0-9]{0,11}$/.test(raw)) {
      problems.push(`${name} must be a positive whole number.`);
      continue;
    }
    limits[key] = Number(raw) * scale;
  }
  return limits;
}

export class PlatformSettingsError extends Error {
  /** The exit code of the CLI for settings that are missing or inconsistent. */
  readonly exitCode = 2;
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'PlatformSettingsError';
  }
}

type Env = Readonly<Record<string, string | undefined>>;

/** An http(s) URL from the environment, or '' after saying what is wrong with it. */
function httpUrl(env: Env, name: string, what: string, problems: string[]): URL | undefined {
  const raw = env[name]?.trim();
  if (!raw) {
    problems.push(`${name} is not set: ${what} (http or https).`);
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    problems.push(`${name} is not a URL.`);
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    problems.push(`${name} must be an http or https URL.`);
    return undefined;
  }
  if (url.username || url.password || url.search || url.hash || raw.endsWith('?')) {
    problems.push(`${name} must not carry credentials, a query or a fragment.`);
    return undefined;
  }
  return url;
}

function baseUrl(env: Env, name: string, problems: string[]): string {
  return httpUrl(env, name, "the platform's base address", problems)?.href.replace(/\/+$/, '') ?? '';
}

function publicOrigin(env: Env, problems: string[]): string {
  const name = 'FRAMEWRIGHT_PUBLIC_URL';
  const url = httpUrl(env, name, 'the origin users reach Framewright at', problems);
  if (!url) return '';
  if (url.pathname !== '/') {
    problems.push(`${name} must be an origin only (scheme, host, port), without a path, query or fragment.`);
    return '';
  }
  return url.origin;
}

/** The names of one credential setting: inline, or a file holding it. */
interface CredentialSetting {
  inline: string;
  file: string;
}
export const APP_CREDENTIAL: CredentialSetting = {
  inline: 'PLATFORM_APP_CREDENTIAL',
  file: 'PLATFORM_APP_CREDENTIAL_FILE',
};
export const PREVIOUS_APP_CREDENTIAL: CredentialSetting = {
  inline: 'PLATFORM_APP_CREDENTIAL_PREVIOUS',
  file: 'PLATFORM_APP_CREDENTIAL_PREVIOUS_FILE',
};

/** A credential set inline or in a file (exactly one of the two); '' when unset or after a problem. */
function credential(
  env: Env,
  problems: string[],
  readFile: (file: string) => string,
  names: CredentialSetting,
  required: boolean,
): string {
  const inline = env[names.inline];
  const file = env[names.file]?.trim();
  if (inline !== undefined && inline !== '' && file) {
    problems.push(`${names.inline} and ${names.file} are both set: set only one.`);
    return '';
  }
  if (file) {
    let text: string;
    try {
      text = readFile(file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
      problems.push(`${names.file} names a file that cannot be read (${code}): ${file}`);
      return '';
    }
    const value = text.trim();
    if (!value) problems.push(`${names.file} names an empty file: ${file}`);
    return value;
  }
  const value = inline?.trim() ?? '';
  if (!value && required)
    problems.push(`The application credential is not set: set ${names.inline} or ${names.file}.`);
  return value;
}

/** Reads and checks the settings; throws PlatformSettingsError listing every problem. */
export function readPlatformSettings(
  env: Env = process.env,
  readFile: (file: string) => string = (file) => readFileSync(file, 'utf8'),
): PlatformSettings {
  const problems: string[] = [];
  const runtimeBaseUrl = baseUrl(env, 'PLATFORM_APP_RUNTIME_BASE_URL', problems);
  const sessionBaseUrl = baseUrl(env, 'PLATFORM_APP_SESSION_BASE_URL', problems);
  const appKey = env.PLATFORM_APP_KEY?.trim() ?? '';
  if (!appKey) problems.push('PLATFORM_APP_KEY is not set: the application key the platform assigned.');
  else if (!/^[A-Za-z0-9._-]+$/.test(appKey))
    problems.push('PLATFORM_APP_KEY may contain only letters, digits, ".", "_" and "-".');
  const appCredential = credential(env, problems, readFile, APP_CREDENTIAL, true);
  const previousAppCredential = credential(env, problems, readFile, PREVIOUS_APP_CREDENTIAL, false);
  const origin = publicOrigin(env, problems);
  const limits = limitsOf(env, problems);
  const storyboardHelperUrl = env.FRAMEWRIGHT_STORYBOARD_HELPER_URL?.trim()
    ? baseUrl(env, 'FRAMEWRIGHT_STORYBOARD_HELPER_URL', problems)
    : '';
  let trustedProxies: string[] = [];
  try {
    trustedProxies = [...parseTrustedProxies(env.FRAMEWRIGHT_TRUSTED_PROXIES)];
  } catch (error) {
    problems.push((error as Error).message);
  }
  const metrics = metricsOf(env, problems);
  let mediaPriority: MediaPriority = 'idle';
  try {
    // the team backend's renders wait for CPU time no call wants
    mediaPriority = mediaPriorityFromEnv(env, 'idle');
  } catch (error) {
    problems.push((error as Error).message);
  }
  if (problems.length > 0) throw new PlatformSettingsError(problems);
  return {
    runtimeBaseUrl,
    sessionBaseUrl,
    appKey,
    appCredential,
    ...(previousAppCredential ? { previousAppCredential } : {}),
    publicOrigin: origin,
    secureCookies: origin.startsWith('https:'),
    limits,
    ...(storyboardHelperUrl ? { storyboardHelperUrl } : {}),
    ...(trustedProxies.length ? { trustedProxies } : {}),
    ...(metrics ? { metrics } : {}),
    mediaPriority,
  };
}

/** The metrics' port and token, when a port is set. */
function metricsOf(env: Env, problems: string[]): PlatformSettings['metrics'] {
  const port = env.FRAMEWRIGHT_METRICS_PORT?.trim();
  const token = env.FRAMEWRIGHT_METRICS_TOKEN?.trim();
  if (!port) {
    if (token) problems.push('FRAMEWRIGHT_METRICS_TOKEN is set but FRAMEWRIGHT_METRICS_PORT is not.');
    return undefined;
  }
  if (!/^[1-9][0-9]{0,4}$/.test(port) || Number(port) > 65535) {
    problems.push('FRAMEWRIGHT_METRICS_PORT must be a port number 1..65535.');
    return undefined;
  }
  if (token !== undefined && token.length > 0 && token.length < 16)
    problems.push('FRAMEWRIGHT_METRICS_TOKEN must be at least 16 characters.');
  return { port: Number(port), ...(token ? { token } : {}) };
}
