import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createBridgeClient, BridgeError, type BridgeTransport } from '../../../src/shared/bridge/api.js';
import {
  bridgeContract,
  eventNames,
  isMethodName,
  methodNames,
} from '../../../src/shared/bridge/contract.js';
import { APP_VERSION } from '../../../src/shared/app-version.js';
import { EVENT_NAMES, METHOD_NAMES } from '../../../src/shared/bridge/names.js';

describe('bridge contract', () => {
  it('lists every method and event once, each with schemas', () => {
    expect(new Set(methodNames).size).toBe(methodNames.length);
    for (const name of methodNames) {
      expect(bridgeContract.methods[name].params).toBeDefined();
      expect(bridgeContract.methods[name].result).toBeDefined();
    }
    expect(eventNames).toContain('connection.changed');
  });

  it("the names-only module the renderer uses lists exactly the contract's methods and events", () => {
    expect([...METHOD_NAMES].sort()).toEqual(Object.keys(bridgeContract.methods).sort());
    expect([...EVENT_NAMES].sort()).toEqual(Object.keys(bridgeContract.events).sort());
  });

  it('does not treat inherited object keys as methods', () => {
    expect(isMethodName('toString')).toBe(false);
    expect(isMethodName('hasOwnProperty')).toBe(false);
    expect(isMethodName('app.info')).toBe(true);
  });

  it('the client turns error envelopes into BridgeError with the code', async () => {
    const transport: BridgeTransport = {
      methods: methodNames,
      invoke: async () => ({ ok: false, error: { code: 'bridge.invalid_params', message: 'bad theme' } }),
      subscribe: () => () => undefined,
      stageFile: async () => ({ ok: false, error: { code: 'file.no_path', message: 'no path' } }),
    };
    const client = createBridgeClient(transport);
    await expect(client.invoke('settings.update', { theme: 'dark' })).rejects.toMatchObject({
      name: 'BridgeError',
      code: 'bridge.invalid_params',
      message: 'bad theme',
    });
    await expect(client.invoke('settings.get', {})).rejects.toBeInstanceOf(BridgeError);
    await expect(client.stageFile(new Blob(['x']) as never)).rejects.toMatchObject({ code: 'file.no_path' });
  });

  it('the client delivers only the subscribed event', () => {
    let emit: (event: never, payload: unknown) => void = () => undefined;
    const transport: BridgeTransport = {
      methods: methodNames,
      invoke: async () => ({ ok: true, result: null }),
      subscribe: (listener) => {
        emit = listener as never;
        return () => undefined;
      },
      stageFile: async () => ({ ok: false, error: { code: 'file.no_path', message: 'no path' } }),
    };
    const received: unknown[] = [];
    createBridgeClient(transport).on('settings.changed', (payload) => received.push(payload));
    emit('connection.changed' as never, { x: 1 });
    emit('settings.changed' as never, { theme: 'dark', locale: 'en' });
    expect(received).toEqual([{ theme: 'dark', locale: 'en' }]);
  });

  it('APP_VERSION matches package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(APP_VERSION).toBe(pkg.version);
  });
});
