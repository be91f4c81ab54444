import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceEntry } from '../../../src/shared/api/discovery.js';
import { SERVICES } from '../../../src/simulator/catalog.js';
import { runFramewright } from '../../support/cli-runner.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

/**
 * A gateway whose discovery lists a chat service without `available` (the spec makes it optional)
 * and one that says `available: false`. Only `available: true` may be called, so nothing is posted.
 */
const withoutAvailable = (alias: string): ServiceEntry => {
  const { available: _dropped, ...rest } = SERVICES.find((s) => s.modelAlias === alias) as ServiceEntry;
  return { ...rest };
};
const DISCOVERY: ServiceEntry[] = [
  withoutAvailable('atlas-chat'),
  { ...(SERVICES.find((s) => s.modelAlias === 'atlas-chat-large') as ServiceEntry), available: false },
];

let server: http.Server;
let baseUrl: string;
let dataDir: string;
const posts: string[] = [];

beforeAll(async () => {
  dataDir = tempFolder('fw-availability-');
  server = http.createServer((req, res) => {
    if (req.method === 'POST') posts.push(req.url ?? '');
    req.resume();
    if (req.method === 'GET' && req.url?.startsWith('/v1/services')) {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: DISCOVERY }));
      return;
    }
    res.writeHead(500, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({ code: 'unexpected', message: 'not expected here', requestId: 'r', retryable: false }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const cli = (args: string[]) =>
  runFramewright([...args, '--base-url', baseUrl, '--data-dir', dataDir], {
    FRAMEWRIGHT_API_KEY: 'fw-availability-key',
  });

describe('only available: true is callable', () => {
  it('a service that does not say it is available is refused by name, with its reason; nothing is sent', async () => {
    const named = await cli(['chat', 'hello', '--model', 'atlas-chat']);
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(/atlas-chat.*does not say it is available/);
    const picked = await cli(['chat', 'hello']);
    expect(picked.code).toBe(2);
    expect(picked.stderr).toMatch(/No available text_chat or vision_chat service/);
    expect(posts).toEqual([]);
  });

  it('`services` lists both as not available, each with its reason', async () => {
    const listed = await cli(['services']);
    expect(listed.code).toBe(0);
    const line = (alias: string) => listed.stdout.split('\n').find((l) => l.includes(` ${alias} `)) ?? '';
    expect(line('atlas-chat')).toMatch(/^✗ .*not available: the service does not say it is available/);
    expect(line('atlas-chat-large')).toMatch(/^✗ .*not available: the service says it is not available/);
  });
});
