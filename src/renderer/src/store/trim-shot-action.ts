import { bridge } from '../bridge';
import { useStudio } from './index';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Saves a shot's in/out points (seconds; the core snaps them to the result's frames and checks
 * them) or clears them (`null`), like the store's sequence actions: busy while it runs (`trim:<id>`),
 * the core's answer becomes the open sequence, a refusal is kept in `sequenceError` to be shown in
 * place. A store action kept out of the sequences slice: only the trim strip imports it, so it lives in
 * the lazy Sequences chunk and the first chunk (at its budget) pays nothing for it.
 */
export async function saveTrim(
  shotId: string,
  range: { inSeconds: number; outSeconds: number } | null,
): Promise<boolean> {
  const key = `trim:${shotId}`;
  const { openSequenceId: sequenceId, sequenceBusy } = useStudio.getState();
  if (!sequenceId || sequenceBusy.includes(key)) return false;
  useStudio.setState({ sequenceBusy: [...sequenceBusy, key], sequenceError: null });
  try {
    const view = await bridge.invoke('sequences.trimShot', { sequenceId, shotId, range });
    if (useStudio.getState().openSequenceId === view.sequenceId) useStudio.setState({ sequence: view });
    return true;
  } catch (error) {
    useStudio.setState({ sequenceError: message(error) });
    return false;
  } finally {
    useStudio.setState({ sequenceBusy: useStudio.getState().sequenceBusy.filter((k) => k !== key) });
  }
}

/**
 * Puts a removed shot back (`sequences.restoreShot`: undo of a removal on the timeline), like
 * {@link saveTrim}: busy while it runs (`restore:<id>`), the answer becomes the open sequence, a
 * refusal is kept in `sequenceError`. Kept out of the slice for the same reason (the lazy chunk pays).
 */
export async function restoreShot(shotId: string): Promise<boolean> {
  const key = `restore:${shotId}`;
  const { openSequenceId: sequenceId, sequenceBusy } = useStudio.getState();
  if (!sequenceId || sequenceBusy.includes(key)) return false;
  useStudio.setState({ sequenceBusy: [...sequenceBusy, key], sequenceError: null });
  try {
    const view = await bridge.invoke('sequences.restoreShot', { sequenceId, shotId });
    if (useStudio.getState().openSequenceId === view.sequenceId) useStudio.setState({ sequence: view });
    return true;
  } catch (error) {
    useStudio.setState({ sequenceError: message(error) });
    return false;
  } finally {
    useStudio.setState({ sequenceBusy: useStudio.getState().sequenceBusy.filter((k) => k !== key) });
  }
}
