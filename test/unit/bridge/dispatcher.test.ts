import { describe, expect, it, vi } from 'vitest';
import { createBridgeDispatcher, type BridgeHandlers } from '../../../src/main/core/bridge/dispatcher.js';
import { AppError } from '../../../src/main/core/errors.js';

function fakeHandlers(overrides: Partial<BridgeHandlers> = {}): BridgeHandlers {
  return {
    'app.info': vi.fn(() => ({
      name: 'Framewright',
      version: '0.1.0',
      host: 'browser' as const,
      os: 'linux',
      nodeVersion: '20',
      dataDir: '/tmp/x',
    })),
    'settings.get': vi.fn(() => ({ theme: 'system' as const, locale: 'system' as const })),
    'settings.update': vi.fn((patch) => ({ theme: 'system' as const, locale: 'system' as const, ...patch })),
    'profiles.list': vi.fn(() => ({ activeProfileId: 'simulator', profiles: [] })),
    'connection.get': vi.fn(() => ({
      profileId: 'simulator',
      state: 'connected' as const,
      checkedAt: 'now',
    })),
    'connection.check': vi.fn(() => ({
      profileId: 'simulator',
      state: 'connected' as const,
      checkedAt: 'now',
    })),
    ...overrides,
    // other domains' handlers are not exercised here
  } as BridgeHandlers;
}

describe('bridge dispatcher', () => {
  it('rejects a payload that breaks the schema with a clear error and never calls the handler', async () => {
    const handlers = fakeHandlers();
    const dispatcher = createBridgeDispatcher(handlers);
    const response = await dispatcher.dispatch('settings.update', { theme: 'purple' });
    expect(response.ok).toBe(false);
    if (response.ok) return;
    expect(response.error.code).toBe('bridge.invalid_params');
    expect(response.error.message).toContain('settings.update');
    expect(response.error.message).toContain('theme');
    expect(handlers['settings.update']).not.toHaveBeenCalled();
  });

  it('rejects unknown keys (the renderer is untrusted input)', async () => {
    const handlers = fakeHandlers();
    const response = await createBridgeDispatcher(handlers).dispatch('settings.update', {
      theme: 'dark',
      admin: true,
    });
    expect(response).toMatchObject({ ok: false, error: { code: 'bridge.invalid_params' } });
    expect(handlers['settings.update']).not.toHaveBeenCalled();
  });

  it('rejects methods outside the contract, including prototype names', async () => {
    const dispatcher = createBridgeDispatcher(fakeHandlers());
    for (const name of ['fs.readFile', '__proto__', 'constructor', 42]) {
      const response = await dispatcher.dispatch(name, {});
      expect(response).toMatchObject({ ok: false, error: { code: 'bridge.unknown_method' } });
    }
  });

  it('passes validated params to the handler and validates the result', async () => {
    const handlers = fakeHandlers();
    const response = await createBridgeDispatcher(handlers).dispatch('settings.update', { theme: 'dark' });
    expect(response).toEqual({ ok: true, result: { theme: 'dark', locale: 'system' } });
    expect(handlers['settings.update']).toHaveBeenCalledWith({ theme: 'dark' });
  });

  it('keeps the code and message of an AppError and hides unexpected errors', async () => {
    const onUnexpectedError = vi.fn();
    const dispatcher = createBridgeDispatcher(
      fakeHandlers({
        'connection.check': () => {
          throw new AppError('profile.unreachable', 'The simulator did not answer.');
        },
        'connection.get': () => {
          throw new Error('secret internal detail');
        },
      }),
      { onUnexpectedError },
    );
    expect(await dispatcher.dispatch('connection.check', {})).toEqual({
      ok: false,
      error: { code: 'profile.unreachable', message: 'The simulator did not answer.', details: undefined },
    });
    const hidden = await dispatcher.dispatch('connection.get', {});
    expect(hidden).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(hidden)).not.toContain('secret internal detail');
    expect(onUnexpectedError).toHaveBeenCalledOnce();
  });

  it('refuses to pass on a result that breaks the contract', async () => {
    const dispatcher = createBridgeDispatcher(
      fakeHandlers({ 'settings.get': () => ({ theme: 'neon', locale: 'en' }) as never }),
    );
    expect(await dispatcher.dispatch('settings.get', {})).toMatchObject({
      ok: false,
      error: { code: 'bridge.invalid_result' },
    });
  });
});
