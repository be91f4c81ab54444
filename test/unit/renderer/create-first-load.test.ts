/**
 * Create's first load (the studio's first screen): the draft and the services are asked for
 * together, not one round trip after the other, and the services shown are always those of the
 * draft's profile.
 */
import { describe, expect, it } from 'vitest';
import { joiningWhileRunning, loadDraftAndServices } from '../../../src/renderer/src/store/create-first-load';

/** A store whose bridge calls stay pending until the test answers them, in any order. */
function pendingStore(initialDraftProfile?: string) {
  const asked: string[] = [];
  const pending = new Map<string, () => void>();
  const state = {
    draftProfileId: initialDraftProfile,
    servicesProfileId: null as string | null,
  };
  const call = (name: string, done: () => void) =>
    new Promise<void>((resolve) => {
      asked.push(name);
      pending.set(name, () => {
        done();
        resolve();
      });
    });
  let listings = 0;
  return {
    asked,
    state,
    /** Answers the pending call `name` (its effect on the store, then its promise). */
    answer(name: string) {
      const finish = pending.get(name);
      if (!finish) throw new Error(`${name} is not pending; asked: ${asked.join(', ')}`);
      pending.delete(name);
      finish();
    },
    /** The store's steps: a new draft is of `newDraftProfile`; listing n is for `listedFor[n]` (null: failed). */
    steps: (newDraftProfile: string, listedFor: (string | null)[]) => ({
      draftProfileId: () => state.draftProfileId,
      servicesProfileId: () => state.servicesProfileId,
      loadDraft: () =>
        call('draft', () => {
          state.draftProfileId = newDraftProfile;
        }),
      loadServices: () => {
        const profile = listedFor[listings] ?? null;
        listings += 1;
        return call(`services:${listings}`, () => {
          state.servicesProfileId = profile;
        });
      },
    }),
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("Create's first load", () => {
  it("lists the active profile's services while the draft is still loading", async () => {
    const store = pendingStore();
    const loaded = loadDraftAndServices(store.steps('simulator', ['simulator']));
    await turn();
    // both in flight before either answered
    expect(store.asked).toEqual(['services:1', 'draft']);
    store.answer('draft');
    store.answer('services:1');
    await loaded;
    // they were the draft's profile's services: not listed twice
    expect(store.asked).toEqual(['services:1', 'draft']);
    expect(store.state).toEqual({ draftProfileId: 'simulator', servicesProfileId: 'simulator' });
  });

  it('waits for the services even when the draft answers first', async () => {
    const store = pendingStore();
    let done = false;
    const loaded = loadDraftAndServices(store.steps('simulator', ['simulator'])).then(() => (done = true));
    await turn();
    store.answer('draft');
    await turn();
    expect(done).toBe(false);
    store.answer('services:1');
    await loaded;
    expect(done).toBe(true);
  });

  it("lists an open draft's own profile's services when it is not the active profile", async () => {
    const store = pendingStore();
    const loaded = loadDraftAndServices(store.steps('personal-1', ['simulator', 'personal-1']));
    await turn();
    store.answer('services:1');
    store.answer('draft');
    await turn();
    expect(store.asked).toEqual(['services:1', 'draft', 'services:2']);
    store.answer('services:2');
    await loaded;
    expect(store.state).toEqual({ draftProfileId: 'personal-1', servicesProfileId: 'personal-1' });
  });

  it('lists them again when the first listing failed (nothing known to be listed)', async () => {
    const store = pendingStore();
    const loaded = loadDraftAndServices(store.steps('simulator', [null, 'simulator']));
    await turn();
    store.answer('services:1');
    store.answer('draft');
    await turn();
    store.answer('services:2');
    await loaded;
    expect(store.asked).toEqual(['services:1', 'draft', 'services:2']);
  });

  it('with a draft already loaded (back on Create), lists its services only', async () => {
    const store = pendingStore('simulator');
    const loaded = loadDraftAndServices(store.steps('unused', ['simulator']));
    await turn();
    store.answer('services:1');
    await loaded;
    expect(store.asked).toEqual(['services:1']);
  });
});

describe('a load started before the first render and again by the screen', () => {
  it('runs once while it runs (no second new draft), and anew after it ended', async () => {
    const finish: (() => void)[] = [];
    let runs = 0;
    const load = joiningWhileRunning(() => {
      runs += 1;
      return new Promise<void>((resolve) => finish.push(resolve));
    });
    const early = load();
    const onMount = load();
    expect(runs).toBe(1);
    finish[0]!();
    await Promise.all([early, onMount]);
    // back on Create later: a new load
    const later = load();
    expect(runs).toBe(2);
    finish[1]!();
    await later;
  });

  it('starts anew after a run that failed', async () => {
    let runs = 0;
    const load = joiningWhileRunning(async () => {
      runs += 1;
      if (runs === 1) throw new Error('unreachable host');
    });
    await expect(load()).rejects.toThrow('unreachable host');
    await load();
    expect(runs).toBe(2);
  });
});
