import { describe, expect, it } from 'vitest';
import type { RuntimeCreateDeps } from '../../../src/main/core/studio/runtime-create.js';
import { RuntimeCreate, runtimeStatusCallable } from '../../../src/main/core/studio/runtime-create.js';

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
