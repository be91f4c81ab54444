import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OutcomeUnknownError } from '../../../src/main/core/api-clients/api-errors.js';
import { RuntimeApiError } from '../../../src/main/core/api-clients/runtime/runtime-errors.js';
import type { GrantIssue } from '../../../src/main/core/api-clients/runtime/session-service-client.js';
import { InterAppError } from '../../../src/main/core/inter-app/grant-errors.js';
import {
  GrantPlaintextGoneError,
  ProductionGrantChannel,
} from '../../../src/main/core/inter-app/production-grant-channel.js';

const INPUT = {
  calleeAppKey: 'storyboard-helper',
  apiVersion: '2026-01',
  scope: 'storyboard.read',
  idempotencyKey: 'k-1',
  requestDigest: `sha256:${'0'.repeat(64)}`,
};

const unavailable = (retryAfterSeconds: number) =>
  new RuntimeApiError({
    status: 503,
    apiCode: 'APP_GRANT_SERVICE_UNAVAILABLE',
    message: 'down',
    retryable: true,
    retryAfterSeconds,
  });

function channelOver(
  answers: (() => Promise<{ grant?: string; expiresAt: string }>)[],
  waits: number[] = [],
) {
  const seen: GrantIssue[] = [];
  const channel = new ProductionGrantChannel({
    sessionService: {
      issueGrant: (issue) => {
        seen.push(issue);
        return answers.shift()!();
      },
    },
    runtimeSessionId: async () => 'rs_secret',
    businessBaseUrl: 'http://127.0.0.1:9/apps/x',
    appLabel: 'Storyboard Helper',
    wait: async (ms) => {
      waits.push(ms);
    },
  });
  return { channel, seen };
}

describe('ProductionGrantChannel.issue', () => {
  it('replays an issue whose answer was lost with the same key and body', async () => {
    const { channel, seen } = channelOver([
      () => Promise.reject(new OutcomeUnknownError('Issue app grant', 'the connection closed')),
      () => Promise.resolve({ grant: 'agr_x', expiresAt: '2026-01-01T00:02:00Z' }),
    ]);
    expect(await channel.issue(INPUT)).toEqual({ grant: 'agr_x', expiresAt: '2026-01-01T00:02:00Z' });
    expect(seen).toHaveLength(2);
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[0]).toMatchObject({ ...INPUT, runtimeSessionId: 'rs_secret' });
  });

  it('says when the same fact answers without its plaintext', async () => {
    const { channel } = channelOver([() => Promise.resolve({ expiresAt: '2026-01-01T00:02:00Z' })]);
    await expect(channel.issue(INPUT)).rejects.toBeInstanceOf(GrantPlaintextGoneError);
  });

  it('waits out a 503 by its Retry-After, then gives a plain sentence past the bound', async () => {
    const waits: number[] = [];
    const { channel } = channelOver(
      [
        () => Promise.reject(unavailable(2)),
        () => Promise.resolve({ grant: 'agr_y', expiresAt: '2026-01-01T00:02:00Z' }),
      ],
      waits,
    );
    expect((await channel.issue(INPUT)).grant).toBe('agr_y');
    expect(waits).toEqual([2000]);

    const long = channelOver([() => Promise.reject(unavailable(120))]);
    const error = await long.channel.issue(INPUT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InterAppError);
    expect((error as InterAppError).message).toMatch(/wait 120 s/);
    expect((error as InterAppError).message).not.toContain('rs_secret');
  });
});

describe('ProductionGrantChannel.send', () => {
  let server: http.Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it('sends the grant header only, the exact body bytes, and follows no redirect', async () => {
    const got: { headers: http.IncomingHttpHeaders; body: Buffer; url: string }[] = [];
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        got.push({ headers: req.headers, body: Buffer.concat(chunks), url: req.url ?? '' });
        res.writeHead(302, { location: 'http://example.invalid/' }).end();
      });
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const channel = new ProductionGrantChannel({
      sessionService: { issueGrant: () => Promise.reject(new Error('unused')) },
      runtimeSessionId: async () => 'rs_secret',
      businessBaseUrl: `http://127.0.0.1:${port}/apps/storyboard-helper/`,
      appLabel: 'Storyboard Helper',
    });
    const body = Buffer.from('{"a":1}');
    const answer = await channel.send({ method: 'POST', path: '/panel-results', body, grant: 'agr_z' });
    expect(answer.status).toBe(302);
    expect(got).toHaveLength(1);
    expect(got[0]!.url).toBe('/apps/storyboard-helper/panel-results');
    expect(got[0]!.body.equals(body)).toBe(true);
    expect(got[0]!.headers['x-platform-app-grant']).toBe('agr_z');
    expect(got[0]!.headers.authorization).toBeUndefined();
    expect(got[0]!.headers.cookie).toBeUndefined();
    expect(JSON.stringify(got[0]!.headers)).not.toContain('rs_secret');
  });
});
