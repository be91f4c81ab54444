import { describe, expect, it, vi } from 'vitest';
import type { ConnectionState } from '../../../src/shared/bridge/contract.js';
import { ConnectionMonitor } from '../../../src/main/core/discovery/connection-monitor.js';
import { ApiError, OutcomeUnknownError } from '../../../src/main/core/api-clients/api-errors.js';
import type { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';

type ListServices = PublicApiClient['listServices'];

function monitor(listServices: () => Promise<unknown>, active = 'work') {
  const changes: ConnectionState[] = [];
  const warn = vi.fn();
  const m = new ConnectionMonitor({
    activeProfileId: () => active,
    clientFor: async () => ({ listServices: listServices as never }),
    onChange: (state) => changes.push(state),
    warn,
    now: () => new Date('2026-11-23T10:00:00Z'),
  });
  return { m, changes, warn };
}

const apiError = (status: number) =>
  new ApiError({ status, apiCode: 'x', message: 'refused', retryable: status >= 500 });

describe('the connection monitor', () => {
  it('starts as "starting" for the active profile and says nothing until checked', () => {
    const { m, changes } = monitor(async () => ({ data: [] }));
    expect(m.current).toEqual({
      profileId: 'work',
      state: 'starting',
      checkedAt: '2026-11-23T10:00:00.000Z',
    });
    expect(changes).toEqual([]);
  });

  it('is connected when the service lists its models, and tells every change', async () => {
    const { m, changes } = monitor(async () => ({ data: [] }));
    expect(await m.check()).toMatchObject({ profileId: 'work', state: 'connected' });
    expect(changes).toEqual([m.current]);
  });

  it('is offline, without a warning, when no answer came or the service is unavailable', async () => {
    for (const error of [new OutcomeUnknownError('GET /services', 'ECONNREFUSED'), apiError(503)]) {
      const { m, warn } = monitor(() => Promise.reject(error));
      expect(await m.check()).toMatchObject({ state: 'offline', detail: error.message });
      expect(warn).not.toHaveBeenCalled();
    }
  });

  it('is in error, and logs it, for any other refusal (a bad key)', async () => {
    const error = apiError(401);
    const { m, warn, changes } = monitor(() => Promise.reject(error));
    expect(await m.check()).toMatchObject({ state: 'error', detail: error.message });
    expect(warn).toHaveBeenCalledWith('connection check failed', { profileId: 'work', error });
    expect(changes.at(-1)).toBe(m.current);
  });
});

describe('the connection is one truth with Create’s discovery', () => {
  it('a discovery call of the active profile that gets no answer makes it offline, and its next answer connected', async () => {
    let answer: () => Promise<unknown> = async () => ({ data: [] });
    const { m, changes } = monitor(() => answer());
    await m.check();
    expect(m.current.state).toBe('connected');
    const client = m.observing('work', {
      listServices: (() => answer()) as ListServices,
      other: () => 'kept',
    });
    answer = () => Promise.reject(new OutcomeUnknownError('GET /services', 'ECONNRESET'));
    await expect(client.listServices()).rejects.toThrow();
    expect(m.current.state).toBe('offline'); // Create's "last known contracts" and the status bar agree
    expect(changes.at(-1)?.state).toBe('offline');
    answer = async () => ({ data: [] });
    await client.listServices();
    expect(m.current.state).toBe('connected');
    expect(changes.map((c) => c.state)).toEqual(['connected', 'offline', 'connected']);
    expect(client.other()).toBe('kept');
  });

  it('an unchanged state is not told again; another profile’s calls are not the active connection', async () => {
    const { m, changes } = monitor(async () => ({ data: [] }));
    const listed = (async () => ({ data: [] })) as unknown as ListServices;
    await m.check();
    const active = m.observing('work', { listServices: listed });
    await active.listServices();
    expect(changes).toHaveLength(1);
    const other = m.observing('personal', {
      listServices: (() => Promise.reject(new OutcomeUnknownError('GET /services', 'x'))) as ListServices,
    });
    await expect(other.listServices()).rejects.toThrow();
    expect(m.current.state).toBe('connected');
    expect(changes).toHaveLength(1);
  });
});
