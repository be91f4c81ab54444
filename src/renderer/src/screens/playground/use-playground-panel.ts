import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlaygroundService } from '../../../../shared/bridge/contract';
import { useStudio } from '../../store';
import { errorText, usePanelModel } from './common';

/** What every playground panel has: its services and chosen model, and one call at a time with its result or error. */
export interface PlaygroundPanelState<R> {
  services: PlaygroundService[];
  model: string;
  setModel(model: string): void;
  /** The chosen model's service (undefined while none is available). */
  service: PlaygroundService | undefined;
  busy: boolean;
  /** A step of `attempt` is under way (a file still uploading): the call cannot run yet. */
  preparing: boolean;
  error: string | null;
  result: R | null;
  /** Runs the panel's call: busy meanwhile, its answer as the result or its error shown. */
  run(call: () => Promise<R>): Promise<void>;
  /** Runs a step that is not the call itself (loading a file, voices): only its error is shown. */
  attempt(step: () => Promise<void>): Promise<void>;
}

/**
 * The state a panel shares with every other: `kinds` are the service kinds it offers; a `billed`
 * panel's calls are journaled, so its history reloads after each one.
 */
export function usePlaygroundPanel<R>(
  kinds: readonly string[],
  { billed }: { billed: boolean },
): PlaygroundPanelState<R> {
  const { t } = useTranslation();
  const { services, model, setModel, service } = usePanelModel(kinds);
  const noteBilledCallFinished = useStudio((s) => s.noteBilledCallFinished);
  const [busy, setBusy] = useState(false);
  const [steps, setSteps] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<R | null>(null);
  const run = useCallback(
    async (call: () => Promise<R>) => {
      setBusy(true);
      setError(null);
      setResult(null);
      try {
        setResult(await call());
      } catch (e) {
        setError(errorText(e, t));
      } finally {
        setBusy(false);
        if (billed) noteBilledCallFinished();
      }
    },
    [t, billed, noteBilledCallFinished],
  );
  const attempt = useCallback(
    async (step: () => Promise<void>) => {
      setError(null);
      // Run waits for it: run now, the call would go without the file still on its way
      setSteps((n) => n + 1);
      try {
        await step();
      } catch (e) {
        setError(errorText(e, t));
      } finally {
        setSteps((n) => n - 1);
      }
    },
    [t],
  );
  return {
    services,
    model,
    setModel,
    service,
    busy,
    preparing: steps > 0,
    error,
    result,
    run,
    attempt,
  };
}
