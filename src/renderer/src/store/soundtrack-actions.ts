import { useCallback, useEffect, useMemo, useState } from 'react';
import type {
  DraftMedia,
  JobView,
  MethodParams,
  MethodResult,
  SoundtrackView,
} from '../../../shared/bridge/contract';
import { bridge } from '../bridge';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

type VoiceInput = Omit<MethodParams<'sequences.soundtrack.addVoice'>, 'sequenceId'>;
type VoiceChange = Omit<MethodParams<'sequences.soundtrack.updateVoice'>, 'sequenceId' | 'lineId'>;

/** The sound track's actions on the open sequence; each answers whether it succeeded. */
export interface SoundtrackActions {
  setMusic(jobRowId: number | null): Promise<boolean>;
  generateMusic(prompt: string): Promise<boolean>;
  setLevels(levels: { musicGainDb?: number; duckDb?: number }): Promise<boolean>;
  addVoice(input: VoiceInput): Promise<boolean>;
  updateVoice(lineId: string, change: VoiceChange): Promise<boolean>;
  removeVoice(lineId: string): Promise<boolean>;
  /** A caption cue's times set by hand (null: its line's own), named by its line and index in it. */
  updateCaption(
    lineId: string,
    cueIndex: number,
    range: { startSeconds: number; endSeconds: number } | null,
  ): Promise<boolean>;
  /** The library's results with a verified sound file (a music bed can be any of them). */
  librarySounds(): Promise<JobView[]>;
  /** Stages a dropped file (a voice line's), as Create does. */
  stageFile(file: File): Promise<DraftMedia>;
  exportCaptions(): Promise<MethodResult<'sequences.captions.export'>>;
}

export interface SoundtrackState {
  view: SoundtrackView | null;
  /** Why the last action (or load) failed, as the core said it; cleared by the next action. */
  error: string | null;
  /** The action running now ('music', 'levels', 'voice', 'line:<id>'): its buttons wait. */
  busy: string | null;
  actions: SoundtrackActions;
}

/**
 * The open sequence's sound track as the core answers it (`sequences.soundtrack.get`), asked again
 * whenever the core says the sequence changed (a line moved) or, while a sound is generating, an
 * audio job changed (a generation that outlived its call finished), and its actions. Only the lazy Sequences screen imports this, so it costs the first chunk nothing.
 */
export function useSoundtrack(sequenceId: string): SoundtrackState {
  const [view, setView] = useState<SoundtrackView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const generating = Boolean(
    view && (view.music?.state === 'generating' || view.voices.some((v) => v.state === 'generating')),
  );

  useEffect(() => {
    let live = true;
    const load = () =>
      bridge.invoke('sequences.soundtrack.get', { sequenceId }).then(
        (answer) => live && setView(answer),
        (e: unknown) => live && setError(message(e)),
      );
    void load();
    const off = bridge.on('sequences.changed', (event) => {
      if (event.sequenceId === sequenceId) void load();
    });
    return () => {
      live = false;
      off();
    };
  }, [sequenceId]);

  // a generation that outlived its call finishes later: an audio job's change asks again
  useEffect(() => {
    if (!generating) return undefined;
    let live = true;
    const off = bridge.on('jobs.changed', (job) => {
      if (job.serviceKind !== 'audio_generation') return;
      void bridge.invoke('sequences.soundtrack.get', { sequenceId }).then(
        (answer) => live && setView(answer),
        () => undefined,
      );
    });
    return () => {
      live = false;
      off();
    };
  }, [generating, sequenceId]);

  const run = useCallback(async (label: string, action: () => Promise<SoundtrackView>) => {
    setBusy(label);
    setError(null);
    try {
      setView(await action());
      return true;
    } catch (e) {
      setError(message(e));
      return false;
    } finally {
      setBusy(null);
    }
  }, []);

  const actions = useMemo<SoundtrackActions>(
    () => ({
      setMusic: (jobRowId) =>
        run('music', () => bridge.invoke('sequences.soundtrack.setMusic', { sequenceId, jobRowId })),
      generateMusic: (prompt) =>
        run('music', () => bridge.invoke('sequences.soundtrack.generateMusic', { sequenceId, prompt })),
      setLevels: (levels) =>
        run('levels', () => bridge.invoke('sequences.soundtrack.setLevels', { sequenceId, ...levels })),
      addVoice: (input) =>
        run('voice', () => bridge.invoke('sequences.soundtrack.addVoice', { sequenceId, ...input })),
      updateVoice: (lineId, change) =>
        run(`line:${lineId}`, () =>
          bridge.invoke('sequences.soundtrack.updateVoice', { sequenceId, lineId, ...change }),
        ),
      removeVoice: (lineId) =>
        run(`line:${lineId}`, () =>
          bridge.invoke('sequences.soundtrack.removeVoice', { sequenceId, lineId }),
        ),
      updateCaption: (lineId, cueIndex, range) =>
        run(`caption:${lineId}:${cueIndex}`, () =>
          bridge.invoke('sequences.captions.update', { sequenceId, lineId, cueIndex, range }),
        ),
      librarySounds: async () =>
        (await bridge.invoke('library.list', {})).items.filter((job) =>
          job.outputs.some((o) => o.verified && (o.mimeType ?? '').startsWith('audio/')),
        ),
      stageFile: (file) => bridge.stageFile(file),
      exportCaptions: () => bridge.invoke('sequences.captions.export', { sequenceId }),
    }),
    [run, sequenceId],
  );

  return { view, error, busy, actions };
}
