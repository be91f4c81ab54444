import { useStudio, type StudioState } from '../../store';

/**
 * The one rule of Generate, Generate ×N and Ctrl/⌘+Enter — one job per draft intent: nothing while
 * a submit is in flight, once the draft was submitted, or while Create gives a reason not to
 * (invalid form, no service, the platform's dry-run refused). The buttons are disabled by it and
 * every press (click or shortcut) is checked by it against the store's state at that moment.
 */
export function generateBlocked(
  reason: string | null,
  state: Pick<StudioState, 'submitting' | 'draft'>,
): boolean {
  return reason !== null || state.submitting || !state.draft || state.draft.submittedAt !== null;
}

/** The key of a keydown event, as far as the shortcut reads it. */
export interface ShortcutKey {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  /** An input method is composing (Chinese input): Enter confirms the composition, not Generate. */
  isComposing?: boolean;
}

/** Ctrl+Enter, or ⌘+Enter on macOS. */
export const isGenerateShortcut = (e: ShortcutKey) =>
  e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && !e.isComposing;

/** What Generate's button shows and declares (aria-keyshortcuts) for the shortcut. */
export const isMac = () =>
  typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform ?? '');

function askToNotify() {
  // asked on the creator's press: a notice when a job ends while the studio is hidden
  if (typeof Notification !== 'undefined' && Notification.permission === 'default')
    void Notification.requestPermission().catch(() => undefined);
}

/** Sends the draft as it is (Generate, or "Send again" of a pending submit), without the guard. */
export function sendDraft() {
  askToNotify();
  void useStudio.getState().submitDraft();
}

/** Generate (the button and Ctrl/⌘+Enter): sends the draft unless `generateBlocked`; true if it sent. */
export function generate(reason: string | null): boolean {
  if (generateBlocked(reason, useStudio.getState())) return false;
  sendDraft();
  return true;
}

/** Generate ×N, by the same rule as Generate; true if it sent. */
export function generateVariations(reason: string | null, count: number): boolean {
  const state = useStudio.getState();
  if (generateBlocked(reason, state)) return false;
  askToNotify();
  void state.submitVariations(count);
  return true;
}

/** A keydown in Create: Ctrl/⌘+Enter is Generate, by the same rule as the button; true if it sent. */
export function onGenerateShortcut(
  event: ShortcutKey & { preventDefault(): void },
  reason: string | null,
): boolean {
  if (!isGenerateShortcut(event)) return false;
  // the key is Create's either way: no newline in the prompt, no click of a focused button
  event.preventDefault();
  return generate(reason);
}
