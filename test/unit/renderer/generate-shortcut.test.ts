/**
 * Ctrl/⌘+Enter in Create is Generate, by the button's own rule (one job per draft intent): it sends
 * the draft once; a second press while that submit is in flight, or after the draft was submitted,
 * sends nothing. A failed submit (the core reopened the draft) can be sent again.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { StudioDraft } from '../../../src/shared/bridge/contract.js';
import { fake } from './fake-bridge.js';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));

// the renderer's modules are the web project's (DOM types): imported by name, typed here
interface Key {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  isComposing?: boolean;
  preventDefault(): void;
}
interface State {
  draft: StudioDraft | null;
  submitting: boolean;
  submitOutcome: { kind: string } | null;
}
const storeModule = '../../../src/renderer/src/store/index.js';
const actionModule = '../../../src/renderer/src/screens/create/generate-action.js';
const { useStudio } = (await import(storeModule)) as {
  useStudio: { getState(): State; setState(s: Partial<State>, replace?: boolean): void };
};
const { onGenerateShortcut, generate, generateBlocked } = (await import(actionModule)) as {
  onGenerateShortcut(event: Key, reason: string | null): boolean;
  generate(reason: string | null): boolean;
  generateBlocked(reason: string | null, state: State): boolean;
};

const initial = useStudio.getState();
const draft = (submittedAt: number | null = null) =>
  ({
    id: 'd-1',
    submittedAt,
    form: { profileId: 'simulator', model: 'any-video', prompt: 'A kite', references: [] },
  }) as unknown as StudioDraft;

function key(extra: Partial<Key> = {}) {
  const event = {
    key: 'Enter',
    ctrlKey: true,
    metaKey: false,
    altKey: false,
    shiftKey: false,
    prevented: 0,
    preventDefault() {
      event.prevented += 1;
    },
    ...extra,
  };
  return event;
}
const submits = () => fake.calls.filter((c) => c.method === 'video.submit').length;
/** The answer of the one video.submit call, held until the test releases it. */
function heldSubmit() {
  let release!: (answer: unknown) => void;
  let fail!: (error: Error) => void;
  fake.answers.set(
    'video.submit',
    () =>
      new Promise((resolve, reject) => {
        release = resolve;
        fail = reject;
      }),
  );
  return { release: (answer: unknown) => release(answer), fail: (error: Error) => fail(error) };
}
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => {
  useStudio.setState(initial, true);
  useStudio.setState({ draft: draft() });
  fake.reset();
  fake.answers.set('drafts.save', () => draft());
});

describe('Ctrl/⌘+Enter in Create', () => {
  it('sends the draft once: a second press while the submit is in flight sends nothing', async () => {
    const submit = heldSubmit();
    const first = key();
    expect(onGenerateShortcut(first, null)).toBe(true);
    expect(useStudio.getState().submitting).toBe(true);
    const second = key({ ctrlKey: false, metaKey: true });
    expect(onGenerateShortcut(second, null)).toBe(false);
    await settled();
    expect(submits()).toBe(1);
    // the button's rule says the same at that moment: Generate is disabled
    expect(generateBlocked(null, useStudio.getState())).toBe(true);
    // neither press reached the focused field or button (no newline, no click)
    expect([first.prevented, second.prevented]).toEqual([1, 1]);

    submit.release({ state: 'accepted', draft: draft(Date.now()) });
    await settled();
    expect(useStudio.getState().submitting).toBe(false);
    expect(useStudio.getState().submitOutcome).toEqual({ kind: 'accepted' });
    // after submission: nothing, whether Create already shows why (the draft was sent) or not yet
    expect(onGenerateShortcut(key(), null)).toBe(false);
    expect(onGenerateShortcut(key(), 'this draft was already submitted.')).toBe(false);
    expect(generate(null)).toBe(false);
    await settled();
    expect(submits()).toBe(1);
  });

  it('does nothing while Create gives a reason not to generate, as the button is disabled then', async () => {
    fake.answers.set('video.submit', () => ({ state: 'accepted', draft: draft(Date.now()) }));
    const reason = '1 problem(s) to fix first.';
    expect(generateBlocked(reason, useStudio.getState())).toBe(true);
    expect(onGenerateShortcut(key(), reason)).toBe(false);
    await settled();
    expect(submits()).toBe(0);
  });

  it('is Ctrl+Enter or ⌘+Enter only, and never while an input method composes', async () => {
    fake.answers.set('video.submit', () => ({ state: 'accepted', draft: draft(Date.now()) }));
    for (const other of [
      key({ ctrlKey: false }),
      key({ key: 'a' }),
      key({ shiftKey: true }),
      key({ altKey: true }),
      key({ isComposing: true }),
    ]) {
      expect(onGenerateShortcut(other, null)).toBe(false);
      expect(other.prevented).toBe(0);
    }
    await settled();
    expect(submits()).toBe(0);
  });

  it('can send again after a submit that failed (the core reopened the draft)', async () => {
    const submit = heldSubmit();
    fake.answers.set('drafts.get', () => draft());
    expect(onGenerateShortcut(key(), null)).toBe(true);
    await settled();
    submit.fail(new Error('the service is unreachable'));
    await settled();
    expect(useStudio.getState().submitOutcome?.kind).toBe('failed');
    heldSubmit();
    expect(onGenerateShortcut(key(), null)).toBe(true);
    await settled();
    expect(submits()).toBe(2);
  });
});
