/**
 * The renderer's one store: its slices call the bridge (components only call actions), and the
 * behaviour that moved into slice actions stays what the screens relied on.
 */
import { ESLint } from 'eslint';
import path from 'node:path';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobView, StudioDraft } from '../../../src/shared/bridge/contract.js';

type Listener = (payload: unknown) => void;
const fake = vi.hoisted(() => ({
  answers: new Map<string, (params: Record<string, unknown>) => unknown>(),
  calls: [] as { method: string; params: Record<string, unknown> }[],
  staged: [] as { name: string; size: number; purpose?: string }[],
  listeners: new Map<string, Set<(payload: unknown) => void>>(),
  missed: new Set<() => void>(),
}));

vi.mock('../../../src/renderer/src/bridge', () => ({
  bridge: {
    async invoke(method: string, params: Record<string, unknown>) {
      fake.calls.push({ method, params });
      const answer = fake.answers.get(method);
      if (!answer) throw new Error(`unexpected bridge call ${method}`);
      return answer(params);
    },
    async stageFile(file: File, purpose?: string) {
      fake.staged.push({ name: file.name, size: file.size, purpose });
      return { fileId: 'f-1', fileName: file.name };
    },
    on(event: string, listener: Listener) {
      const set = fake.listeners.get(event) ?? new Set();
      set.add(listener);
      fake.listeners.set(event, set);
      return () => set.delete(listener);
    },
    onMissedEvents(listener: () => void) {
      fake.missed.add(listener);
      return () => fake.missed.delete(listener);
    },
  },
}));

// The store is a browser module (tsconfig.web.json types it; the node config has no DOM), so it
// is loaded by a path the node typecheck does not follow, and used through what this test needs.
interface State {
  [name: string]: unknown;
  services: unknown[];
  playgroundServices: unknown[];
  jobOrder: number[];
  streaming: { streamId: string; text: string } | null;
  draft: StudioDraft | null;
  admission: unknown;
  submitOutcome: unknown;
  submitting: boolean;
  libraryItems: unknown[] | null;
  libraryModels: string[];
  libraryModes: string[];
  submitDraft(): Promise<void>;
  checkAdmission(): Promise<void>;
  editForm(patch: Partial<StudioDraft['form']>): void;
  newDraft(): Promise<void>;
  draftOpening: boolean;
  flushDraft(): Promise<void>;
  searchLibrary(filters: Record<string, unknown>): Promise<void>;
  resetLibrary(): void;
  sendPlaygroundFile(file: File): Promise<unknown>;
}
interface Store {
  getState(): State;
  setState(state: Record<string, unknown>, replace?: boolean): void;
}
const storeModule = '../../../src/renderer/src/store/index.js';
const eventsModule = '../../../src/renderer/src/store/core-events.js';
const { useStudio } = (await import(storeModule)) as { useStudio: Store };
const { listenToCore } = (await import(eventsModule)) as {
  listenToCore(onJobFinished: (job: JobView) => void): () => void;
};

const initial = useStudio.getState();
const push = (event: string, payload: unknown) => fake.listeners.get(event)?.forEach((l) => l(payload));
const methods = () => fake.calls.map((c) => c.method);

function draftOf(id: string, prompt: string, submittedAt: number | null = null): StudioDraft {
  return {
    id,
    submittedAt,
    form: {
      profileId: 'simulator',
      model: 'any-video',
      generationMode: 't2v',
      prompt,
      orientation: 'landscape',
      seconds: 5,
      resolutionTier: '768p',
      seed: null,
      references: [],
    },
  } as unknown as StudioDraft;
}

function job(rowId: number, status: string, verified = false): JobView {
  return {
    rowId,
    status,
    prompt: `job ${rowId}`,
    outputs: verified ? [{ id: 1, verified: true }] : [],
  } as unknown as JobView;
}

beforeEach(() => {
  useStudio.setState(initial, true);
  fake.answers.clear();
  fake.calls.length = 0;
  fake.staged.length = 0;
  fake.listeners.clear();
});

describe('one store for every screen', () => {
  it('holds the studio and the playground together (the playground has no store of its own)', () => {
    const state = useStudio.getState();
    for (const action of [
      'loadCreate',
      'loadJobs',
      'searchLibrary',
      'addProfile',
      'loadPlaygroundServices',
      'sendChat',
    ])
      expect(typeof state[action]).toBe('function');
    // the two "services" lists are two things: the draft's video services and the playground's
    expect(state.services).not.toBe(state.playgroundServices);
  });
});

describe('what the core pushes', () => {
  it('reaches the store, and a job that just ended is announced once', () => {
    const finished: number[] = [];
    const stop = listenToCore((j: JobView) => finished.push(j.rowId));
    push('jobs.changed', job(7, 'running'));
    push('jobs.changed', job(7, 'succeeded'));
    push('jobs.changed', job(7, 'succeeded'));
    // the verified result arriving later is news too
    push('jobs.changed', job(7, 'succeeded', true));
    expect(finished).toEqual([7, 7]);
    expect(useStudio.getState().jobOrder).toEqual([7]);

    useStudio.setState({ streaming: { streamId: 's-1', text: 'a' } });
    push('playground.chat.delta', { streamId: 's-1', token: 'b' });
    push('playground.chat.delta', { streamId: 's-other', token: 'x' });
    expect(useStudio.getState().streaming).toEqual({ streamId: 's-1', text: 'ab' });

    stop();
    push('jobs.changed', job(8, 'failed'));
    expect(finished).toEqual([7, 7]);
    expect([...fake.listeners.values()].every((set) => set.size === 0)).toBe(true);
  });
});

describe('after the events channel dropped (a backend restarting behind its drain)', () => {
  it('re-reads the jobs, the app and the sequences, and keeps what it shows when a read fails', async () => {
    const stop = listenToCore(() => undefined);
    push('jobs.changed', job(3, 'running'));
    fake.calls.length = 0;
    // while the channel was down, job 3 finished and job 4 was made: only a read can tell
    fake.answers.set('jobs.list', () => ({
      items: [job(4, 'queued'), job(3, 'succeeded')],
      nextCursor: null,
    }));
    fake.answers.set('app.info', () => ({ version: 'x' }));
    fake.answers.set('settings.get', () => ({}));
    fake.answers.set('sequences.list', () => []);
    for (const listener of fake.missed) listener();
    await vi.waitFor(() => expect(useStudio.getState().jobOrder).toEqual([4, 3]));
    expect(fake.calls.map((c) => c.method).sort()).toEqual([
      'app.info',
      'jobs.list',
      'sequences.list',
      'settings.get',
    ]);

    fake.answers.delete('jobs.list');
    for (const listener of fake.missed) listener();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(useStudio.getState().jobOrder).toEqual([4, 3]);
    stop();
    expect(fake.missed.size).toBe(0);
  });
});

describe('Create', () => {
  it('a refused submit keeps what was typed and takes the reopened draft from the core', async () => {
    useStudio.setState({ draft: draftOf('d-1', 'typed meanwhile') });
    fake.answers.set('drafts.save', (p) => ({ ...draftOf('d-1', 'saved'), form: p.form }));
    fake.answers.set('video.submit', () => {
      throw new Error('Insufficient balance');
    });
    fake.answers.set('drafts.get', () => ({ ...draftOf('d-1', 'as saved by the core'), lastError: 'x' }));
    await useStudio.getState().submitDraft();
    const state = useStudio.getState();
    expect(methods()).toEqual(['drafts.save', 'video.submit', 'drafts.get']);
    expect(state.draft?.form.prompt).toBe('typed meanwhile');
    expect(state.draft).toMatchObject({ lastError: 'x', submittedAt: null });
    expect(state.submitOutcome).toEqual({ kind: 'failed', message: 'Insufficient balance' });
    expect(state.submitting).toBe(false);
  });

  it('New draft: the form being left takes no edit until the new draft is shown', async () => {
    useStudio.setState({ draft: draftOf('d-old', ''), activeProfileId: 'simulator' });
    let answer!: (draft: StudioDraft) => void;
    fake.answers.set('drafts.save', (p) => ({ ...draftOf(p.draftId as string, ''), form: p.form }));
    fake.answers.set('drafts.create', () => new Promise<StudioDraft>((resolve) => (answer = resolve)));
    const opening = useStudio.getState().newDraft();
    await vi.waitFor(() => expect(methods()).toEqual(['drafts.save', 'drafts.create']));
    expect(useStudio.getState().draftOpening).toBe(true);
    // typed while the new draft is on its way: it would land in the old draft, then vanish from view
    useStudio.getState().editForm({ prompt: 'typed too early' });
    expect(useStudio.getState().draft?.form.prompt).toBe('');
    answer(draftOf('d-new', ''));
    await opening;
    expect(useStudio.getState()).toMatchObject({ draftOpening: false, draft: { id: 'd-new' } });
    useStudio.getState().editForm({ prompt: 'typed in the new draft' });
    expect(useStudio.getState().draft).toMatchObject({
      id: 'd-new',
      form: { prompt: 'typed in the new draft' },
    });
    await useStudio
      .getState()
      .flushDraft()
      .catch(() => undefined);
  });

  it('an admission answer holds until the creator changes the form', async () => {
    useStudio.setState({ draft: draftOf('d-1', 'a harbour') });
    fake.answers.set('drafts.save', (p) => ({ ...draftOf('d-1', ''), form: p.form }));
    fake.answers.set('video.admission', () => ({
      admitted: false,
      admission: { reason: 'capacity', message: 'try later' },
    }));
    await useStudio.getState().checkAdmission();
    expect(useStudio.getState().admission).toEqual({
      kind: 'answered',
      admitted: false,
      reason: 'capacity: try later',
    });
    useStudio.getState().editForm({ prompt: 'a harbour at dusk' });
    expect(useStudio.getState().admission).toBeNull();
    await useStudio.getState().flushDraft();
  });
});

describe('Library', () => {
  it('offers the models and modes of unfiltered searches as filters, and forgets them when left', async () => {
    const items = [
      { rowId: 1, model: 'm-a', generationMode: 't2v' },
      { rowId: 2, model: 'm-b', generationMode: null },
    ];
    fake.answers.set('library.list', (p) => ({ items: p.model ? items.slice(0, 1) : items }));
    await useStudio.getState().searchLibrary({});
    await useStudio.getState().searchLibrary({ model: 'm-a', query: 'x' });
    const state = useStudio.getState();
    expect(state.libraryItems).toHaveLength(1);
    expect(state.libraryModels).toEqual(['m-a', 'm-b']);
    expect(state.libraryModes).toEqual(['t2v']);
    state.resetLibrary();
    expect(useStudio.getState()).toMatchObject({ libraryItems: null, libraryModels: [], libraryModes: [] });
  });
});

describe('Playground files', () => {
  it('refuses a file over 25 MiB before sending any byte', async () => {
    const big = new File([new Uint8Array(25 * 1024 * 1024 + 1)], 'big.wav');
    await expect(useStudio.getState().sendPlaygroundFile(big)).rejects.toMatchObject({
      code: 'playground.too_large',
    });
    expect(fake.calls).toEqual([]);
    expect(fake.staged).toEqual([]);
  });

  it("hands a file to the core's one staging store, for the Playground", async () => {
    const bytes = new Uint8Array(512 * 1024 + 3).map((_, i) => i % 251);
    const file = await useStudio.getState().sendPlaygroundFile(new File([bytes], 'a.bin'));
    expect(file).toEqual({ fileId: 'f-1', fileName: 'a.bin' });
    expect(fake.staged).toEqual([{ name: 'a.bin', size: 512 * 1024 + 3, purpose: 'playground' }]);
    expect(fake.calls).toEqual([]);
  });
});

describe('components never call the bridge', () => {
  const eslint = new ESLint({ cwd: path.resolve(import.meta.dirname, '../../..') });
  const code =
    "import { bridge } from '../../bridge';\nexport const ask = () => bridge.invoke('app.info', {});\n";
  const refusals = async (file: string) =>
    (
      await eslint.lintText(code, { filePath: path.resolve(import.meta.dirname, '../../..', file) })
    )[0]!.messages
      .filter((m) => m.ruleId === 'no-restricted-imports')
      .map((m) => m.message);

  it('ESLint refuses the bridge in a screen, and allows it in a store slice', async () => {
    expect(await refusals('src/renderer/src/screens/create/Probe.ts')).toEqual([
      expect.stringContaining('Bridge calls are store actions'),
    ]);
    expect(await refusals('src/renderer/src/store/probe-slice.ts')).toEqual([]);
  }, 60_000);
});

describe('one connection state for Create and the status bar', () => {
  it('back online while Create shows the last known contracts: the live ones are fetched once', async () => {
    const stop = listenToCore(() => undefined);
    fake.answers.set('profiles.list', () => ({ profiles: [], activeProfileId: 'simulator' }));
    fake.answers.set('connection.get', () => ({ profileId: 'simulator', state: 'connected', checkedAt: '' }));
    fake.answers.set('services.list', () => ({
      profileId: 'simulator',
      services: [],
      fetchedAt: 2,
      fromCache: false,
    }));
    useStudio.setState({
      servicesFromCache: true,
      connection: { profileId: 'simulator', state: 'offline', checkedAt: '' },
    });
    push('connection.changed', { profileId: 'simulator', state: 'connected', checkedAt: '' });
    await vi.waitFor(() => expect(useStudio.getState().servicesFromCache).toBe(false));
    expect(methods().filter((m) => m === 'services.list')).toHaveLength(1);
    // an unchanged "connected" fetches nothing more
    push('connection.changed', { profileId: 'simulator', state: 'connected', checkedAt: '' });
    await Promise.resolve();
    expect(methods().filter((m) => m === 'services.list')).toHaveLength(1);
    stop();
  });
});

describe('Create and the status bar agree even when the change came before the page listened', () => {
  it('services answered from the last known copy while the page shows "connected": the connection is read again', async () => {
    fake.answers.set('services.list', () => ({
      profileId: 'simulator',
      services: [],
      fetchedAt: 1,
      fromCache: true,
    }));
    fake.answers.set('connection.get', () => ({ profileId: 'simulator', state: 'offline', checkedAt: '' }));
    useStudio.setState({ connection: { profileId: 'simulator', state: 'connected', checkedAt: '' } });
    await (useStudio.getState() as unknown as { loadServices(): Promise<void> }).loadServices();
    expect(methods()).toEqual(['services.list', 'connection.get']);
    expect((useStudio.getState().connection as { state: string }).state).toBe('offline');
    // agreeing already: nothing more is read
    fake.calls.length = 0;
    await (useStudio.getState() as unknown as { loadServices(): Promise<void> }).loadServices();
    expect(methods()).toEqual(['services.list']);
  });

  it('a late answer read before the change never overwrites the newer state', async () => {
    fake.answers.set('profiles.list', () => ({ profiles: [], activeProfileId: 'simulator' }));
    fake.answers.set('connection.get', () => ({
      profileId: 'simulator',
      state: 'connected',
      checkedAt: '2026-11-27T10:00:00.000Z',
    }));
    useStudio.setState({
      connection: { profileId: 'simulator', state: 'offline', checkedAt: '2026-11-27T10:00:05.000Z' },
    });
    await (useStudio.getState() as unknown as { loadProfiles(): Promise<void> }).loadProfiles();
    expect((useStudio.getState().connection as { state: string }).state).toBe('offline');
  });
});
