import { Dialog } from 'radix-ui';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BatchPreview, DraftForm, ServiceEntryView } from '../../../../shared/bridge/contract';
import { BATCH_MAX_JOBS } from '../../../../shared/bridge/names';
import { useStudio } from '../../store';

interface Props {
  form: DraftForm;
  service: ServiceEntryView;
  disabled: boolean;
}

type Params = {
  file: { name: string; text: string };
  defaults: {
    model: string;
    generationMode: 't2v';
    seconds: number;
    orientation: string;
    resolutionTier: string;
    seed: number | null;
  };
  /** A named new run sends every row again under new keys (billed again). */
  runLabel?: string;
  /** At most this many new jobs now; the other new rows wait for a later import. */
  maxJobs?: number;
};

/** Typing in the run fields re-checks the file after this pause. */
const RECHECK_MS = 300;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/**
 * "Import prompts…": one text-to-video job per line of a TXT (or row of a CSV), with the Create
 * form's settings. The core (shared with `framewright batch`) checks every row against the live
 * contract and keys each row, so importing the same file again creates nothing new.
 */
export function BatchImport({ form, service, disabled }: Props) {
  const { t } = useTranslation();
  const setSection = useStudio((s) => s.setSection);
  const previewBatch = useStudio((s) => s.previewBatch);
  const submitBatch = useStudio((s) => s.submitBatch);
  const input = useRef<HTMLInputElement>(null);
  const [params, setParams] = useState<Params | null>(null);
  const [preview, setPreview] = useState<BatchPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [runLabel, setRunLabel] = useState('');
  const [maxJobs, setMaxJobs] = useState('');
  const t2v = form.generationMode === 't2v';

  const pick = async (file: File | undefined) => {
    if (!file || !t2v) return;
    setError(null);
    setSubmitError(null);
    setBusy(true);
    try {
      const next: Params = {
        file: { name: file.name, text: await file.text() },
        defaults: {
          model: form.model,
          generationMode: 't2v',
          seconds: form.seconds,
          orientation: form.orientation,
          resolutionTier: form.resolutionTier,
          seed: form.seed ?? null,
        },
      };
      const result = await previewBatch(next);
      setParams(next);
      setPreview(result);
    } catch (e) {
      setError(message(e));
    } finally {
      setBusy(false);
    }
  };

  const close = () => {
    setPreview(null);
    setParams(null);
    setSubmitError(null);
    setRunLabel('');
    setMaxJobs('');
  };

  // The run fields: a new run's name and a job limit. Each change re-checks the file (main
  // decides what is new under the new keys and which rows the limit leaves for later).
  const maxJobsValue = maxJobs.trim() === '' ? undefined : Number(maxJobs);
  const maxJobsInvalid =
    maxJobsValue !== undefined &&
    (!Number.isInteger(maxJobsValue) || maxJobsValue < 1 || maxJobsValue > BATCH_MAX_JOBS);
  const label = runLabel.trim() === '' ? undefined : runLabel.trim().slice(0, 200);
  // the preview on screen is the one of the fields as typed (Generate waits for it)
  const fieldsSettled =
    !!params && !maxJobsInvalid && params.runLabel === label && params.maxJobs === maxJobsValue;
  useEffect(() => {
    if (!params || maxJobsInvalid || fieldsSettled) return;
    const next: Params = { file: params.file, defaults: params.defaults };
    if (label !== undefined) next.runLabel = label;
    if (maxJobsValue !== undefined) next.maxJobs = maxJobsValue;
    let current = true;
    const timer = setTimeout(() => {
      setBusy(true);
      previewBatch(next)
        .then((result) => {
          if (!current) return;
          setParams(next);
          setPreview(result);
          setSubmitError(null);
        })
        .catch((e: unknown) => current && setSubmitError(message(e)))
        .finally(() => current && setBusy(false));
    }, RECHECK_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [params, label, maxJobsValue, maxJobsInvalid, fieldsSettled, previewBatch]);

  const generate = async () => {
    if (!params) return;
    setBusy(true);
    setSubmitError(null);
    try {
      const result = await submitBatch(params);
      const refused = result.rows.filter((r) => r.state === 'refused' || r.state === 'not_submitted');
      if (result.stoppedBy || refused.length > 0) {
        setSubmitError(
          [result.stoppedBy, ...refused.map((r) => `${r.row}: ${r.error?.message ?? r.state}`)]
            .filter(Boolean)
            .join(' · '),
        );
        return;
      }
      close();
      setSection('queue');
    } catch (e) {
      setSubmitError(message(e));
    } finally {
      setBusy(false);
    }
  };

  const duplicates = preview?.rows.filter((r) => r.duplicateOf !== null).length ?? 0;
  const capped = preview?.rows.filter((r) => r.state === 'capped').length ?? 0;
  const alreadySent =
    preview?.rows.filter((r) => r.duplicateOf === null && r.state === 'already_sent').length ?? 0;
  const reason = !preview
    ? null
    : preview.invalidRows > 0
      ? t('studio.batch.reasonInvalid', { count: preview.invalidRows })
      : maxJobsInvalid
        ? t('studio.batch.reasonMaxJobs', { max: BATCH_MAX_JOBS })
        : preview.newRows === 0
          ? t('studio.batch.reasonNothingNew')
          : null;

  return (
    <div className="panel" aria-labelledby="batch-title">
      <h2 id="batch-title">{t('studio.batch.title')}</h2>
      <p className="hint">{t('studio.batch.hint')}</p>
      <input
        ref={input}
        type="file"
        accept=".txt,.csv,text/plain,text/csv"
        hidden
        data-testid="batch-file"
        onChange={(e) => {
          const file = e.target.files?.[0];
          // the same file can be chosen again (a re-import)
          e.target.value = '';
          void pick(file);
        }}
      />
      <button
        type="button"
        className="button"
        data-testid="batch-import"
        disabled={disabled || !t2v || busy}
        onClick={() => input.current?.click()}
      >
        {t('studio.batch.import')}
      </button>
      {!t2v ? (
        <p className="hint" data-testid="batch-t2v-only">
          {t('studio.batch.t2vOnly')}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="error-text" data-testid="batch-error">
          {error}
        </p>
      ) : null}

      {preview && params ? (
        <Dialog.Root open onOpenChange={(open) => !open && close()}>
          <Dialog.Portal>
            <Dialog.Overlay className="dialog-overlay" />
            <Dialog.Content
              className="dialog-content"
              data-testid="batch-dialog"
              aria-describedby="batch-summary"
            >
              <Dialog.Title>{t('studio.batch.dialogTitle', { file: preview.fileName })}</Dialog.Title>
              <p className="hint">{t('studio.batch.t2vNote')}</p>
              <table className="batch-table">
                <thead>
                  <tr>
                    <th scope="col">{t('studio.batch.row')}</th>
                    <th scope="col">{t('studio.batch.prompt')}</th>
                    <th scope="col">{t('studio.batch.status')}</th>
                  </tr>
                </thead>
                <tbody>
                  {preview.rows.map((r) => (
                    <tr
                      key={r.row}
                      data-testid="batch-row"
                      data-row={r.row}
                      data-state={r.duplicateOf !== null ? 'duplicate' : r.state}
                    >
                      <td>{r.row}</td>
                      <td>
                        <span className="batch-prompt">{r.prompt}</span>
                        {r.issues.length ? (
                          <ul className="violations" data-testid="batch-issues">
                            {r.issues.map((issue, i) => (
                              <li key={`${issue.code}-${i}`} data-code={issue.code}>
                                {t(`violation.${issue.code.replaceAll('.', '__')}`, {
                                  ...issue.params,
                                  defaultValue: issue.message,
                                })}
                              </li>
                            ))}
                          </ul>
                        ) : null}
                      </td>
                      <td data-testid="batch-row-status">
                        {r.duplicateOf !== null
                          ? t('studio.batch.duplicateOf', { row: r.duplicateOf })
                          : t(`studio.batch.state.${r.state}`)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p id="batch-summary" data-testid="batch-summary">
                {t('studio.batch.summary', {
                  count: preview.newRows,
                  model: service.displayName,
                  seconds: params.defaults.seconds,
                  orientation: params.defaults.orientation,
                  tier: params.defaults.resolutionTier,
                })}{' '}
                {alreadySent || duplicates
                  ? t('studio.batch.nothingNew', { already: alreadySent, duplicates })
                  : null}{' '}
                {capped ? t('studio.batch.cappedNote', { count: capped }) : null}
              </p>
              <fieldset className="batch-run" data-testid="batch-run">
                <legend>{t('studio.batch.runLegend')}</legend>
                <label>
                  {t('studio.batch.runLabel')}
                  <input
                    type="text"
                    maxLength={200}
                    value={runLabel}
                    data-testid="batch-run-label"
                    aria-describedby="batch-run-label-hint"
                    onChange={(e) => setRunLabel(e.target.value)}
                  />
                </label>
                <p id="batch-run-label-hint" className="hint">
                  {t('studio.batch.runLabelHint')}
                </p>
                <label>
                  {t('studio.batch.maxJobs')}
                  <input
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={BATCH_MAX_JOBS}
                    step={1}
                    value={maxJobs}
                    data-testid="batch-max-jobs"
                    aria-invalid={maxJobsInvalid || undefined}
                    aria-describedby="batch-max-jobs-hint"
                    onChange={(e) => setMaxJobs(e.target.value)}
                  />
                </label>
                <p id="batch-max-jobs-hint" className="hint">
                  {t('studio.batch.maxJobsHint')}
                </p>
              </fieldset>
              <div className="row">
                <button
                  type="button"
                  className="button button-primary"
                  data-testid="batch-generate"
                  disabled={reason !== null || busy || !fieldsSettled}
                  aria-describedby="batch-generate-reason"
                  onClick={() => void generate()}
                >
                  {busy
                    ? t('studio.create.generating')
                    : t('studio.batch.generate', { count: preview.newRows })}
                </button>
                <Dialog.Close className="button button-secondary">{t('studio.batch.cancel')}</Dialog.Close>
              </div>
              {reason ? (
                <p id="batch-generate-reason" className="hint" data-testid="batch-generate-reason">
                  {t('studio.create.whyDisabled', { reason })}
                </p>
              ) : null}
              {submitError ? (
                <p role="alert" className="error-text" data-testid="batch-submit-error">
                  {submitError}
                </p>
              ) : null}
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
      ) : null}
    </div>
  );
}
