/**
 * A 401 tells the person what to do with the credential they have: a profile's API key is checked;
 * a paired debug session's token, refused when its hour has passed on the platform's clock (even if
 * this computer's clock says minutes are left), means pairing again — never "check the key".
 */
import { describe, expect, it } from 'vitest';
import { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';

const refused = (async () =>
  new Response(JSON.stringify({ code: 'unauthorized', message: 'Token expired', requestId: 'req_1' }), {
    status: 401,
    headers: { 'content-type': 'application/json' },
  })) as unknown as typeof fetch;

function client(kind: 'personal' | 'debug') {
  return new PublicApiClient(
    { profileId: 'p1', kind, baseUrl: 'https://gateway.example/v1', secret: async () => 'secret-1' },
    { fetchImpl: refused },
  );
}

describe('what a refused credential tells the person', () => {
  it('a debug session refused by the platform: pair again', async () => {
    const error = await client('debug')
      .listServices()
      .catch((e: unknown) => e as Error);
    expect(error.message).toMatch(/Pair again with framewright login --debug/);
    expect(error.message).not.toMatch(/check the profile’s key/);
  });

  it('a personal key refused: check the key', async () => {
    const error = await client('personal')
      .listServices()
      .catch((e: unknown) => e as Error);
    expect(error.message).toMatch(/check the profile’s key/);
  });
});
