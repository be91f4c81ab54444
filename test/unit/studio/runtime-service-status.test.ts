import { describe, expect, it } from 'vitest';
import type { RuntimeCreateDeps } from '../../../src/main/core/backends/platform-runtime/runtime-create.js';
import {
  RuntimeCreate,
  runtimeStatusCallable,
} from '../../../src/main/core/backends/platform-runtime/runtime-create.js';

/** A RuntimeCreate whose `/available-services` answers these items (nothing else is called). */
function createWith(items: { model: string; status: string }[]): RuntimeCreate {
  const deps = {
    client: {
      availableServices: async () => ({
        object: 'list',
        items: items.map((i) => ({ ...i, serviceKind: 'video_generation', displayName: i.model })),
        page: 1,
        pageSize: 200,
        total: items.length,
      }),
      dryRun: async () => ({ accepted: true }),
    },
    session: async () => ({ sessionId: 'rs_1' }),
  } as unknown as RuntimeCreateDeps;
  return new RuntimeCreate(deps);
}

describe('a runtime service status word (the spec names `status`, not its values)', () => {
  it('offers a listed service whose word is not `available` but says nothing against calling it', async () => {
    const { services } = await createWith([
      { model: 'h3-video', status: 'available' },
      { model: 'h3-video-fast', status: 'active' },
      { model: 'h3-video-beta', status: 'online' },
    ]).services();
    expect(services.map((s) => [s.modelAlias, s.available, s.availability])).toEqual([
      ['h3-video', true, 'available'],
      ['h3-video-fast', true, 'available'],
      ['h3-video-beta', true, 'available'],
    ]);
  });

  it('keeps a service whose word says it cannot be called now not available', async () => {
    const { services } = await createWith([
      { model: 'a', status: 'unavailable' },
      { model: 'b', status: 'NOT_AVAILABLE' },
      { model: 'c', status: 'maintenance' },
      { model: 'd', status: 'disabled' },
    ]).services();
    expect(services.every((s) => !s.available && s.availability === 'not_available')).toBe(true);
    expect(runtimeStatusCallable(' ready ')).toBe(true);
    expect(runtimeStatusCallable('suspended')).toBe(false);
  });
});

describe('the services list on the platform, one listing per session for a while', () => {
  it('Create, the dry-run and the connection check share one /available-services listing per session per 30 s', async () => {
    let now = 1_000_000;
    const calls: { sessionId: string; query: unknown }[] = [];
    let sessionId = 'rs_1';
    const create = new RuntimeCreate({
      client: {
        availableServices: async (auth: { sessionId?: string }, query: unknown) => {
          calls.push({ sessionId: JSON.stringify(auth), query });
          return {
            object: 'list',
            items: [
              { model: 'h3-video', status: 'available', serviceKind: 'video_generation' },
              { model: 'pic', status: 'available', serviceKind: 'image_generation' },
            ],
            page: 1,
            pageSize: 200,
            total: 2,
          };
        },
        dryRun: async () => ({ accepted: true }),
      },
      session: async () => ({ sessionId }),
      now: () => now,
    } as unknown as RuntimeCreateDeps);
    expect((await create.services('video_generation')).services.map((s) => s.modelAlias)).toEqual([
      'h3-video',
    ]);
    expect((await create.mediaServices()).map((s) => s.modelAlias)).toEqual(['pic']);
    await create.services();
    expect(calls).toHaveLength(1);
    now += 31_000;
    await create.services('video_generation');
    expect(calls).toHaveLength(2);
    // another session (another browser of the person, or a renewed one) lists for itself
    sessionId = 'rs_2';
    await create.services('video_generation');
    expect(calls).toHaveLength(3);
    expect(new Set(calls.map((c) => c.sessionId)).size).toBe(2);
  });

  it('a failed listing is not kept: the next call lists again', async () => {
    let fail = true;
    let listed = 0;
    const create = new RuntimeCreate({
      client: {
        availableServices: async () => {
          listed += 1;
          if (fail) throw new Error('unavailable');
          return { object: 'list', items: [], page: 1, pageSize: 200, total: 0 };
        },
        dryRun: async () => ({ accepted: true }),
      },
      session: async () => ({ sessionId: 'rs_1' }),
    } as unknown as RuntimeCreateDeps);
    await expect(create.services()).rejects.toThrow('unavailable');
    fail = false;
    expect((await create.services()).services).toEqual([]);
    expect(listed).toBe(2);
  });
});
