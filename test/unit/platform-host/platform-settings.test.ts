import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PLATFORM_LIMITS,
  PlatformSettingsError,
  readPlatformSettings,
} from '../../../src/main/core/platform/platform-settings.js';
import { clientAddressOf } from '../../../src/main/core/platform/client-address.js';

const CREDENTIAL = 'app-credential-SECRET-value';
const complete = {
  PLATFORM_APP_RUNTIME_BASE_URL: 'https://runtime.example.com/platform/runtime/',
  PLATFORM_APP_SESSION_BASE_URL: 'https://sessions.example.com/session',
  PLATFORM_APP_KEY: 'framewright-studio',
  PLATFORM_APP_CREDENTIAL: `  ${CREDENTIAL}\n`,
  FRAMEWRIGHT_PUBLIC_URL: 'https://studio.example.com',
};
const noFile = (): string => {
  throw Object.assign(new Error('no file'), { code: 'ENOENT' });
};

function problemsOf(env: Record<string, string | undefined>, readFile = noFile): string[] {
  try {
    readPlatformSettings(env, readFile);
  } catch (error) {
    expect(error).toBeInstanceOf(PlatformSettingsError);
    expect((error as PlatformSettingsError).exitCode).toBe(2);
    return [...(error as PlatformSettingsError).problems];
  }
  throw new Error('expected the settings to be refused');
}

describe('platform settings', () => {
  it('runs the media tools at idle priority unless set; a misspelt priority is refused with the names', () => {
    expect(readPlatformSettings(complete).mediaPriority).toBe('idle');
    expect(readPlatformSettings({ ...complete, FRAMEWRIGHT_MEDIA_PRIORITY: 'low' }).mediaPriority).toBe(
      'low',
    );
    expect(problemsOf({ ...complete, FRAMEWRIGHT_MEDIA_PRIORITY: 'lowest' })).toEqual([
      'FRAMEWRIGHT_MEDIA_PRIORITY must be idle, low or normal (got "lowest").',
    ]);
  });

  it('reads the metrics port and token, the drain and refuses what is malformed', () => {
    expect(readPlatformSettings(complete).metrics).toBeUndefined();
    expect(readPlatformSettings(complete).limits?.drainSeconds).toBe(25);
    const set = readPlatformSettings({
      ...complete,
      FRAMEWRIGHT_METRICS_PORT: '9464',
      FRAMEWRIGHT_METRICS_TOKEN: ' scrape-token-0123456789 ',
      FRAMEWRIGHT_DRAIN_SECONDS: '40',
    });
    expect(set.metrics).toEqual({ port: 9464, token: 'scrape-token-0123456789' });
    expect(set.limits?.drainSeconds).toBe(40);
    expect(problemsOf({ ...complete, FRAMEWRIGHT_METRICS_PORT: '70000' })).toEqual([
      'FRAMEWRIGHT_METRICS_PORT must be a port number 1..65535.',
    ]);
    expect(problemsOf({ ...complete, FRAMEWRIGHT_METRICS_TOKEN: 'scrape-token-0123456789' })).toEqual([
      'FRAMEWRIGHT_METRICS_TOKEN is set but FRAMEWRIGHT_METRICS_PORT is not.',
    ]);
    const short = problemsOf({
      ...complete,
      FRAMEWRIGHT_METRICS_PORT: '9464',
      FRAMEWRIGHT_METRICS_TOKEN: 'short',
    });
    expect(short).toEqual(['FRAMEWRIGHT_METRICS_TOKEN must be at least 16 characters.']);
  });

  it('reads complete settings, trims the credential and makes https cookies secure', () => {
    const settings = readPlatformSettings(complete, noFile);
    expect(settings).toEqual({
      runtimeBaseUrl: 'https://runtime.example.com/platform/runtime',
      sessionBaseUrl: 'https://sessions.example.com/session',
      appKey: 'framewright-studio',
      appCredential: CREDENTIAL,
      publicOrigin: 'https://studio.example.com',
      secureCookies: true,
      limits: DEFAULT_PLATFORM_LIMITS,
      mediaPriority: 'idle',
    });
    expect(
      readPlatformSettings({ ...complete, FRAMEWRIGHT_PUBLIC_URL: 'http://127.0.0.1:8080' }, noFile),
    ).toMatchObject({ publicOrigin: 'http://127.0.0.1:8080', secureCookies: false });
  });

  it('reads the limits per person and session, 20 GiB and 10 000 files unless set', () => {
    expect(DEFAULT_PLATFORM_LIMITS).toMatchObject({
      storageBytes: 20 * 1024 ** 3,
      storageFiles: 10_000,
      idleWorkspaceSeconds: 900,
    });
    const settings = readPlatformSettings(
      {
        ...complete,
        FRAMEWRIGHT_STORAGE_QUOTA_MIB: '512',
        FRAMEWRIGHT_STORAGE_QUOTA_FILES: '100',
        FRAMEWRIGHT_UPLOADS_PER_SESSION: '2',
        FRAMEWRIGHT_CALLS_PER_SESSION: '8',
        FRAMEWRIGHT_SOCKETS_PER_SESSION: '3',
        FRAMEWRIGHT_IDLE_WORKSPACE_SECONDS: '60',
        FRAMEWRIGHT_SWEEP_INTERVAL_SECONDS: '600',
      },
      noFile,
    );
    expect(settings.limits).toEqual({
      storageBytes: 512 * 1024 * 1024,
      storageFiles: 100,
      uploadsPerSession: 2,
      callsPerSession: 8,
      socketsPerSession: 3,
      idleWorkspaceSeconds: 60,
      sweepIntervalSeconds: 600,
      drainSeconds: 25,
      callsPerSecond: 20,
    });
    expect(
      problemsOf({
        ...complete,
        FRAMEWRIGHT_STORAGE_QUOTA_FILES: '0',
        FRAMEWRIGHT_CALLS_PER_SESSION: 'many',
      }),
    ).toEqual([
      'FRAMEWRIGHT_STORAGE_QUOTA_FILES must be a positive whole number.',
      'FRAMEWRIGHT_CALLS_PER_SESSION must be a positive whole number.',
    ]);
  });

  it("reads Storyboard Helper's business address when set (capability storyboards), and only an http(s) one", () => {
    expect(readPlatformSettings(complete, noFile).storyboardHelperUrl).toBeUndefined();
    expect(
      readPlatformSettings(
        {
          ...complete,
          FRAMEWRIGHT_STORYBOARD_HELPER_URL: 'https://helper.example.com/apps/storyboard-helper/',
        },
        noFile,
      ).storyboardHelperUrl,
    ).toBe('https://helper.example.com/apps/storyboard-helper');
    expect(
      problemsOf({ ...complete, FRAMEWRIGHT_STORYBOARD_HELPER_URL: 'ftp://helper.example.com' }),
    ).toEqual(['FRAMEWRIGHT_STORYBOARD_HELPER_URL must be an http or https URL.']);
  });

  it('reads the credential from PLATFORM_APP_CREDENTIAL_FILE, trimmed', () => {
    const env = {
      ...complete,
      PLATFORM_APP_CREDENTIAL: undefined,
      PLATFORM_APP_CREDENTIAL_FILE: '/run/cred',
    };
    const settings = readPlatformSettings(env, (file) =>
      file === '/run/cred' ? `${CREDENTIAL}\n` : noFile(),
    );
    expect(settings.appCredential).toBe(CREDENTIAL);
  });

  it('reports every missing setting at once, one line each', () => {
    const problems = problemsOf({});
    expect(problems).toHaveLength(5);
    for (const name of [
      'PLATFORM_APP_RUNTIME_BASE_URL',
      'PLATFORM_APP_SESSION_BASE_URL',
      'PLATFORM_APP_KEY',
      'PLATFORM_APP_CREDENTIAL',
      'FRAMEWRIGHT_PUBLIC_URL',
    ])
      expect(problems.some((line) => line.includes(name))).toBe(true);
    for (const line of problems) expect(line).not.toContain('\n');
  });

  it('reads the credential before a rotation, inline or from a file, only when it is set', () => {
    expect(readPlatformSettings(complete, noFile).previousAppCredential).toBeUndefined();
    expect(
      readPlatformSettings({ ...complete, PLATFORM_APP_CREDENTIAL_PREVIOUS: ' old-credential\n' }, noFile)
        .previousAppCredential,
    ).toBe('old-credential');
    const fromFile = readPlatformSettings(
      { ...complete, PLATFORM_APP_CREDENTIAL_PREVIOUS_FILE: '/run/old' },
      (file) => (file === '/run/old' ? 'old-credential\n' : noFile()),
    );
    expect(fromFile.previousAppCredential).toBe('old-credential');
    const problems = problemsOf(
      {
        ...complete,
        PLATFORM_APP_CREDENTIAL_PREVIOUS: 'old-credential',
        PLATFORM_APP_CREDENTIAL_PREVIOUS_FILE: '/run/old',
      },
      () => 'old-credential',
    );
    expect(problems).toEqual([
      'PLATFORM_APP_CREDENTIAL_PREVIOUS and PLATFORM_APP_CREDENTIAL_PREVIOUS_FILE are both set: set only one.',
    ]);
  });

  it('refuses both credential settings, and never echoes the credential', () => {
    const problems = problemsOf({ ...complete, PLATFORM_APP_CREDENTIAL_FILE: '/run/cred' }, () => CREDENTIAL);
    expect(problems).toEqual([
      'PLATFORM_APP_CREDENTIAL and PLATFORM_APP_CREDENTIAL_FILE are both set: set only one.',
    ]);
    expect(problems.join('\n')).not.toContain(CREDENTIAL);
  });

  it('refuses an unreadable or empty credential file, naming the file', () => {
    const env = {
      ...complete,
      PLATFORM_APP_CREDENTIAL: undefined,
      PLATFORM_APP_CREDENTIAL_FILE: '/run/missing',
    };
    expect(problemsOf(env)).toEqual([
      'PLATFORM_APP_CREDENTIAL_FILE names a file that cannot be read (ENOENT): /run/missing',
    ]);
    expect(problemsOf(env, () => ' \n')).toEqual([
      'PLATFORM_APP_CREDENTIAL_FILE names an empty file: /run/missing',
    ]);
  });

  it('refuses a public URL with a path or query, and base URLs that are not http(s)', () => {
    for (const value of [
      'https://studio.example.com/app',
      'https://studio.example.com/?x=1',
      'ftp://x.example.com',
      'studio',
    ])
      expect(problemsOf({ ...complete, FRAMEWRIGHT_PUBLIC_URL: value })).toHaveLength(1);
    const problems = problemsOf({
      ...complete,
      PLATFORM_APP_RUNTIME_BASE_URL: 'file:///etc',
      PLATFORM_APP_SESSION_BASE_URL: 'https://u:p@sessions.example.com',
    });
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).not.toContain(CREDENTIAL);
  });
});

describe('trusted proxies (FRAMEWRIGHT_TRUSTED_PROXIES)', () => {
  it('are addresses; anything else is refused with the setting named', () => {
    const settings = readPlatformSettings(
      { ...complete, FRAMEWRIGHT_TRUSTED_PROXIES: ' 10.0.0.2, ::ffff:127.0.0.1 ,fd00::1' },
      noFile,
    );
    expect(settings.trustedProxies).toEqual(['10.0.0.2', '127.0.0.1', 'fd00::1']);
    expect(readPlatformSettings(complete, noFile).trustedProxies).toBeUndefined();
    expect(problemsOf({ ...complete, FRAMEWRIGHT_TRUSTED_PROXIES: '10.0.0.2, proxy.internal' })).toEqual([
      'FRAMEWRIGHT_TRUSTED_PROXIES: "proxy.internal" is not an IP address.',
    ]);
  });

  it('name the client by X-Forwarded-For only when the peer is one of them', () => {
    const trusted = new Set(['10.0.0.2', '10.0.0.3']);
    expect(clientAddressOf('10.0.0.2', '198.51.100.7', trusted)).toBe('198.51.100.7');
    // the nearest hop that is not a trusted proxy; a client cannot spoof past it
    expect(clientAddressOf('10.0.0.2', '1.2.3.4, 198.51.100.7, 10.0.0.3', trusted)).toBe('198.51.100.7');
    expect(clientAddressOf('::ffff:10.0.0.2', '198.51.100.7', trusted)).toBe('198.51.100.7');
    // anyone else's header is ignored, and a malformed hop falls back to the peer
    expect(clientAddressOf('203.0.113.9', '198.51.100.7', trusted)).toBe('203.0.113.9');
    expect(clientAddressOf('10.0.0.2', 'junk', trusted)).toBe('10.0.0.2');
    expect(clientAddressOf('10.0.0.2', undefined, trusted)).toBe('10.0.0.2');
  });
});
