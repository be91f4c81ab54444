/**
 * The Sequences screen's store: every action goes to the core's `sequences.*` methods, the strip is
 * the core's answer, errors are kept to be shown in place, and the strip follows jobs and events.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type {
  AssemblyView,
  DraftForm,
  JobView,
  SequenceView,
  StudioDraft,
} from '../../../src/shared/bridge/contract.js';
import { fake } from './fake-bridge.js';
import { sequence, shot } from './sequence-fixtures.js';
import {
  PLATFORM_CAPABILITIES,
  PUBLIC_API_CAPABILITIES,
} from '../../../src/main/core/backends/capabilities.js';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));

interface State {
  [name: string]: unknown;
  sequence: SequenceView | null;
  sequenceError: string | null;
  sequenceBusy: string[];
  section: string;
  draft: StudioDraft | null;
  openSequence(id: string): Promise<void>;
  addShot(form: DraftForm): Promise<boolean>;
  moveShot(shotId: string, to: number): Promise<boolean>;
  continueShot(id: string, mode: string, fileId?: string): Promise<boolean>;
  bridgeShots(a: string, b: string): Promise<boolean>;
  generateShots(shotId?: string): Promise<boolean>;
  editShot(shotId: string, edit: { prompt?: string; seconds?: number }): Promise<boolean>;
  openShotInCreate(shotId: string): Promise<void>;
  assembleSequence(crossfade: number): Promise<boolean>;
  deleteSequence(id: string): Promise<boolean>;
  refreshSequence(): Promise<void>;
  receiveAssembly(a: AssemblyView): void;
  receiveSequenceJob(job: JobView): void;
  receiveSequenceChanged(id: string): void;
}
const storeModule = '../../../src/renderer/src/store/index.js';
const { useStudio, visibleSections } = (await import(storeModule)) as {
  useStudio: { getState(): State; setState(s: Record<string, unknown>, replace?: boolean): void };
  visibleSections(manager: boolean | null, capabilities?: { sequences: boolean }): string[];
};
const initial = useStudio.getState();
const state = () => useStudio.getState();
const calls = (method: string) => fake.calls.filter((c) => c.method === method).map((c) => c.params);
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

const form: DraftForm = {
  profileId: 'simulator',
  model: 'h3-video',
  generationMode: 't2v',
  prompt: 'A lighthouse at dusk',
  orientation: 'landscape',
  seconds: 5,
  resolutionTier: '768p',
  seed: null,
  references: [],
};

const assembly = (patch: Partial<AssemblyView> = {}): AssemblyView => ({
  assemblyId: 'asm-1',
  sequenceId: 'seq-1',
  state: 'assembling',
  progress: 0,
  crossfadeSeconds: 0.5,
  mediaUrl: null,
  fileName: null,
  durationSeconds: null,
  byteSize: null,
  sha256: null,
  chapters: [],
  errorMessage: null,
  createdAt: 1,
  reused: false,
  ...patch,
});

const job = (rowId: number) => ({ rowId, status: 'running', outputs: [] }) as unknown as JobView;

/** Opens seq-1 with `view` as the core's answer (and keeps answering it). */
async function open(view: SequenceView) {
  fake.answers.set('sequences.get', () => view);
  await state().openSequence('seq-1');
  fake.calls.length = 0;
}

beforeEach(() => {
  useStudio.setState(initial, true);
  fake.reset();
});

describe('Sequences in the navigation', () => {
  it('is listed after the Library where the backend offers Sequences (both backends), never where it does not', () => {
    expect(visibleSections(false, PUBLIC_API_CAPABILITIES)).toEqual([
      'create',
      'queue',
      'library',
      'sequences',
      'playground',
      'settings',
    ]);
    expect(visibleSections(true, PLATFORM_CAPABILITIES)).toContain('sequences');
    expect(visibleSections(true, PLATFORM_CAPABILITIES)).toContain('team');
    expect(visibleSections(true, { ...PLATFORM_CAPABILITIES, sequences: false })).not.toContain('sequences');
    // not before the capabilities are known (a platform page must not offer it, even for a moment)
    expect(visibleSections(false)).not.toContain('sequences');
  });
});

describe('building a sequence', () => {
  it('adds a shot with the full form and shows the strip the core answers', async () => {
    const one = sequence({ shots: [shot()], totalSeconds: 5 });
    await open(sequence());
    fake.answers.set('sequences.addShot', () => one);
    expect(await state().addShot(form)).toBe(true);
    expect(calls('sequences.addShot')).toEqual([{ sequenceId: 'seq-1', form }]);
    expect(state().sequence).toEqual(one);
  });

  it('keeps the core’s error to show in place, loses nothing, and clears it on the next action', async () => {
    const one = sequence({ shots: [shot()], totalSeconds: 5 });
    await open(one);
    fake.answers.set('sequences.continueShot', () => {
      throw new Error('Shot 1 has no verified result to continue from.');
    });
    expect(await state().continueShot('shot-1', 'i2v')).toBe(false);
    expect(state().sequenceError).toBe('Shot 1 has no verified result to continue from.');
    expect(state().sequence).toEqual(one);
    expect(state().sequenceBusy).toEqual([]);
    fake.answers.set('sequences.moveShot', () => one);
    await state().moveShot('shot-1', 0);
    expect(state().sequenceError).toBeNull();
  });

  it('sends reorder, continue (with the staged last frame) and bridge as the contract says', async () => {
    const view = sequence({ shots: [shot(), shot({ shotId: 'shot-2', position: 1, label: 'Shot 2' })] });
    await open(view);
    for (const m of ['sequences.moveShot', 'sequences.continueShot', 'sequences.bridgeShots'])
      fake.answers.set(m, () => view);
    await state().moveShot('shot-2', 0);
    await state().continueShot('shot-1', 'first_last_frame_video', '3f0c7a2e-4b1d-4c8e-9a6f-2d5b8e1c7f90');
    await state().continueShot('shot-2', 'i2v');
    await state().bridgeShots('shot-1', 'shot-2');
    expect(fake.calls).toEqual([
      { method: 'sequences.moveShot', params: { sequenceId: 'seq-1', shotId: 'shot-2', toPosition: 0 } },
      {
        method: 'sequences.continueShot',
        params: {
          sequenceId: 'seq-1',
          fromShotId: 'shot-1',
          generationMode: 'first_last_frame_video',
          lastFrameFileId: '3f0c7a2e-4b1d-4c8e-9a6f-2d5b8e1c7f90',
        },
      },
      {
        method: 'sequences.continueShot',
        params: { sequenceId: 'seq-1', fromShotId: 'shot-2', generationMode: 'i2v' },
      },
      {
        method: 'sequences.bridgeShots',
        params: { sequenceId: 'seq-1', fromShotId: 'shot-1', toShotId: 'shot-2' },
      },
    ]);
  });

  it('a second Generate while the first runs sends nothing more', async () => {
    await open(sequence({ shots: [shot()] }));
    let answer: (v: unknown) => void = () => undefined;
    fake.answers.set('sequences.generate', () => new Promise((resolve) => (answer = resolve)));
    const first = state().generateShots();
    const second = state().generateShots();
    expect(await second).toBe(false);
    const submitted = sequence({ shots: [shot({ state: 'submitted' })] });
    answer({ submitted: [{ shotId: 'shot-1', state: 'accepted', message: null }], sequence: submitted });
    expect(await first).toBe(true);
    expect(calls('sequences.generate')).toEqual([{ sequenceId: 'seq-1' }]);
    expect(state().sequence).toEqual(submitted);
    expect(state().generateOutcome).toEqual([{ shotId: 'shot-1', state: 'accepted', message: null }]);
  });

  it('edits a draft shot through its draft, keeping every other field of the form', async () => {
    await open(sequence({ shots: [shot()] }));
    const draft: StudioDraft = {
      id: 'draft-1',
      idempotencyKey: 'k',
      form: { ...form, seed: 42, extra: { cameraMotion: 'dolly' } },
      submittedAt: null,
      jobRowId: null,
      createdAt: 1,
      updatedAt: 1,
    };
    fake.answers.set('drafts.get', () => draft);
    fake.answers.set('drafts.save', (p) => ({ ...draft, form: p.form }));
    const edited = sequence({ shots: [shot({ prompt: 'A storm', seconds: 10 })] });
    fake.answers.set('sequences.get', () => edited);
    expect(await state().editShot('shot-1', { prompt: 'A storm', seconds: 10 })).toBe(true);
    expect(calls('drafts.save')).toEqual([
      { draftId: 'draft-1', form: { ...draft.form, prompt: 'A storm', seconds: 10 } },
    ]);
    expect(state().sequence).toEqual(edited);
  });

  it('opens a draft shot in Create', async () => {
    await open(sequence({ shots: [shot()] }));
    const draft = { id: 'draft-1', form, submittedAt: null } as unknown as StudioDraft;
    fake.answers.set('drafts.get', () => draft);
    await state().openShotInCreate('shot-1');
    expect(state().draft).toEqual(draft);
    expect(state().section).toBe('create');
  });

  it('deleting the open sequence closes it', async () => {
    await open(sequence());
    fake.answers.set('sequences.delete', () => ({ deleted: true }));
    fake.answers.set('sequences.list', () => []);
    expect(await state().deleteSequence('seq-1')).toBe(true);
    expect(state().sequence).toBeNull();
    expect(state().openSequenceId).toBeNull();
  });
});

describe('the strip stays live', () => {
  it('asks again when a shot’s job changes, or any job while a shot waits for its job', async () => {
    await open(sequence({ shots: [shot({ state: 'running', jobRowId: 7 })] }));
    state().receiveSequenceJob(job(8));
    await settle();
    expect(calls('sequences.get')).toEqual([]);
    state().receiveSequenceJob(job(7));
    await settle();
    expect(calls('sequences.get')).toEqual([{ sequenceId: 'seq-1' }]);

    fake.calls.length = 0;
    await open(sequence({ shots: [shot({ state: 'submitted' })] }));
    state().receiveSequenceJob(job(99));
    await settle();
    expect(calls('sequences.get')).toHaveLength(1);
  });

  it('events arriving during a refresh bring one more refresh, not one each', async () => {
    await open(sequence());
    const answers: ((v: SequenceView) => void)[] = [];
    fake.answers.set('sequences.get', () => new Promise((resolve) => answers.push(resolve)));
    state().receiveSequenceChanged('seq-1');
    state().receiveSequenceChanged('seq-1');
    state().receiveSequenceChanged('seq-1');
    await settle();
    expect(answers).toHaveLength(1);
    answers[0]!(sequence({ name: 'first' }));
    await settle();
    expect(answers).toHaveLength(2);
    answers[1]!(sequence({ name: 'latest' }));
    await settle();
    expect(state().sequence?.name).toBe('latest');
    expect(calls('sequences.get')).toHaveLength(2);
  });

  it('follows the assembly’s progress; a late progress event never undoes its end', async () => {
    const ready = assembly({ state: 'ready', progress: 1, mediaUrl: '/media/a.mp4', durationSeconds: 14 });
    await open(sequence({ assemblable: true }));
    fake.answers.set('sequences.assemble', () => assembly());
    expect(await state().assembleSequence(0.5)).toBe(true);
    expect(calls('sequences.assemble')).toEqual([{ sequenceId: 'seq-1', crossfadeSeconds: 0.5 }]);
    expect(state().sequence?.assembly?.state).toBe('assembling');
    state().receiveAssembly(assembly({ progress: 0.4 }));
    expect(state().sequence?.assembly?.progress).toBe(0.4);
    // another sequence's assembly is not this one's
    state().receiveAssembly(assembly({ sequenceId: 'seq-2', progress: 0.9 }));
    expect(state().sequence?.assembly?.progress).toBe(0.4);
    fake.answers.set('sequences.get', () =>
      sequence({ assemblable: true, assembly: ready, assemblyCurrent: true }),
    );
    state().receiveAssembly(ready);
    state().receiveAssembly(assembly({ progress: 0.8 }));
    expect(state().sequence?.assembly?.state).toBe('ready');
    await settle();
    // its end asks the core again: whether it is current with the shots
    expect(state().sequence?.assemblyCurrent).toBe(true);
  });

  it('an Assemble answer that comes back after the end was pushed leaves it ended', async () => {
    await open(sequence({ assemblable: true }));
    const ready = assembly({ state: 'ready', progress: 1, mediaUrl: '/media/a.mp4' });
    fake.answers.set('sequences.assemble', () => {
      state().receiveAssembly(ready);
      return assembly({ progress: 0 });
    });
    fake.answers.set('sequences.get', () => sequence({ assemblable: true, assembly: ready }));
    await state().assembleSequence(0);
    await settle();
    expect(state().sequence?.assembly?.state).toBe('ready');
  });
});
