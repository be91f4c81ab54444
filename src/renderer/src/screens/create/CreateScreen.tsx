import { Progress, Select } from 'radix-ui';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DraftForm, StudioService } from '../../../../shared/bridge/contract';
import {
  countPromptCodePoints,
  findStaleLabels,
  insertLabel,
  numberReferences,
  unusedInputs,
  validateDraft,
  violationsFor,
  type StaleLabel,
} from '../../../../shared/h3';
import { bridge } from '../../bridge';
import { useStudio } from '../../store';
import '../../theme/studio.css';
import { ContractFields } from './ContractFields';
import { OptimizerPanel } from './OptimizerPanel';
import { ReferenceComposer } from './ReferenceComposer';
import { ViolationList } from './ViolationList';
import { fitForm, limitsOf, toVideoDraft } from './form-model';

// "Import prompts…" (its dialog included) sits below the form: it loads after the first paint.
const BatchImport = lazy(() => import('./BatchImport').then((m) => ({ default: m.BatchImport })));

/** Create: a video from the live contract of the chosen service. */
export function CreateScreen() {
  const { t } = useTranslation();
  const draft = useStudio((s) => s.draft);
  const draftError = useStudio((s) => s.draftError);
  const services = useStudio((s) => s.services);
  const servicesError = useStudio((s) => s.servicesError);
  const fromCache = useStudio((s) => s.servicesFromCache);
  const fetchedAt = useStudio((s) => s.servicesFetchedAt);
  const updateForm = useStudio((s) => s.updateForm);
  const flushDraft = useStudio((s) => s.flushDraft);
  const newDraft = useStudio((s) => s.newDraft);
  const setDraft = useStudio((s) => s.setDraft);
  const setSection = useStudio((s) => s.setSection);
  const uploads = useStudio((s) => s.uploads);
  const promptRef = useRef<HTMLTextAreaElement>(null);
  const [orphaned, setOrphaned] = useState<StaleLabel[]>([]);
  const [admission, setAdmission] = useState<{ ok: boolean | null; text: string } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [submitMessage, setSubmitMessage] = useState<{ ok: boolean; pending?: boolean; text: string } | null>(
    null,
  );

  useEffect(() => {
    void useStudio.getState().loadCreate();
  }, []);

  const form = draft?.form;
  const service = useMemo(
    () => services.find((s) => s.modelAlias === form?.model) ?? services.find((s) => s.available),
    [services, form?.model],
  );
  const limits = useMemo(() => (service ? limitsOf(service) : undefined), [service]);

  // fit a new (or foreign) draft to the chosen service's contract
  useEffect(() => {
    if (!form || !service || !limits || draft?.submittedAt !== null) return;
    // only when the service changes: afterwards, out-of-range values are shown as violations
    if (form.model === service.modelAlias && form.generationMode) return;
    const fitted = fitForm(form, service, limits);
    if (JSON.stringify(fitted) !== JSON.stringify(form)) updateForm(fitted);
  }, [form, service, limits, draft?.submittedAt, updateForm]);

  const violations = useMemo(
    () => (form && limits ? validateDraft(toVideoDraft(form), limits) : []),
    [form, limits],
  );
  const submitted = draft?.submittedAt !== null && draft !== null;
  const disabled = submitted || !service?.available;

  if (!draft || !form) {
    return (
      <section className="screen" aria-labelledby="create-title">
        <h1 id="create-title">{t('create.title')}</h1>
        {draftError ? (
          <p role="alert">{t('errors.generic', { message: draftError })}</p>
        ) : (
          <p>{t('studio.create.loading')}</p>
        )}
      </section>
    );
  }

  const numbering = numberReferences(form.references);
  const stale = findStaleLabels(form.prompt, numbering);
  const unused = limits ? unusedInputs(toVideoDraft(form), form.generationMode, limits) : [];
  const count = limits ? countPromptCodePoints(form.prompt, limits.prompt.trim) : 0;

  const change = (patch: Partial<DraftForm>) => {
    setAdmission(null);
    updateForm(patch);
  };

  const insertAtCursor = (label: string) => {
    const el = promptRef.current;
    const cursor = el ? el.selectionStart : form.prompt.length;
    const end = el ? el.selectionEnd : undefined;
    const result = insertLabel(form.prompt, cursor, label, end);
    change({ prompt: result.prompt });
    requestAnimationFrame(() => {
      if (!el) return;
      el.focus();
      el.setSelectionRange(result.cursor, result.cursor);
    });
  };

  const checkAdmission = async () => {
    setAdmission(null);
    try {
      await flushDraft();
      const r = await bridge.invoke('video.admission', { draftId: draft.id });
      const reason = [r.admission.reason, r.admission.message]
        .filter((x) => typeof x === 'string')
        .join(': ');
      setAdmission({
        ok: r.admitted,
        text: r.admitted === false ? t('studio.create.notAdmitted', { reason }) : t('studio.create.admitted'),
      });
    } catch (e) {
      setAdmission({ ok: false, text: e instanceof Error ? e.message : String(e) });
    }
  };

  const generate = async () => {
    setSubmitting(true);
    setSubmitMessage(null);
    if (typeof Notification !== 'undefined' && Notification.permission === 'default')
      void Notification.requestPermission().catch(() => undefined);
    try {
      await flushDraft();
      const r = await bridge.invoke('video.submit', { draftId: draft.id });
      setDraft(r.draft);
      setSubmitMessage({
        ok: true,
        pending: r.state === 'pending',
        text:
          r.state === 'accepted'
            ? t('studio.create.submitted')
            : t('studio.create.submittedPending', { reason: r.reason ?? '' }),
      });
    } catch (e) {
      // the core reopened the draft if nothing was created: reload its bookkeeping
      const fresh = await bridge.invoke('drafts.get', { draftId: draft.id }).catch(() => undefined);
      if (fresh) setDraft({ ...fresh, form: useStudio.getState().draft?.form ?? fresh.form });
      setSubmitMessage({ ok: false, text: e instanceof Error ? e.message : String(e) });
    } finally {
      setSubmitting(false);
    }
  };

  const reason = submitted
    ? t('studio.create.reasonSubmitted')
    : !service?.available
      ? t('studio.create.reasonNoService')
      : violations.length > 0
        ? t('studio.create.reasonInvalid', { count: violations.length })
        : null;

  return (
    <section className="screen create-screen" aria-labelledby="create-title">
      <div className="row screen-head">
        <h1 id="create-title">{t('create.title')}</h1>
        <button type="button" className="button" data-testid="new-draft-top" onClick={() => void newDraft()}>
          {t('studio.create.newDraft')}
        </button>
      </div>
      {servicesError ? (
        <p role="alert" className="error-banner">
          {t('errors.generic', { message: servicesError })}
        </p>
      ) : null}
      {fromCache ? (
        <p className="hint" data-testid="services-offline">
          {t('studio.create.servicesOffline', {
            time: fetchedAt ? new Date(fetchedAt).toLocaleString() : '',
          })}
        </p>
      ) : null}
      {submitted ? (
        <div className="notice" data-testid="draft-submitted">
          {t('studio.create.draftSubmittedNote')}{' '}
          <button type="button" className="button" data-testid="new-draft" onClick={() => void newDraft()}>
            {t('studio.create.newDraft')}
          </button>
        </div>
      ) : null}

      <div className="panel">
        <label className="field-label" htmlFor="service-select">
          {t('studio.create.service')}
        </label>
        <Select.Root
          value={service?.modelAlias}
          disabled={submitted}
          onValueChange={(model) => change({ model })}
        >
          <Select.Trigger id="service-select" className="select-trigger" data-testid="service-select">
            <Select.Value />
            <Select.Icon>▾</Select.Icon>
          </Select.Trigger>
          <Select.Portal>
            <Select.Content className="select-content" position="popper">
              <Select.Viewport>
                {services.map((s) => (
                  <Select.Item
                    key={s.modelAlias}
                    value={s.modelAlias}
                    disabled={!s.available}
                    className="select-item"
                    data-testid={`service-${s.modelAlias}`}
                    title={s.available ? undefined : t(whyNotCallable(s))}
                  >
                    <Select.ItemText>
                      {s.available
                        ? s.displayName
                        : t('studio.create.serviceUnavailable', { name: s.displayName })}
                    </Select.ItemText>
                  </Select.Item>
                ))}
              </Select.Viewport>
            </Select.Content>
          </Select.Portal>
        </Select.Root>
        {services.filter((s) => !s.available).length ? (
          <ul className="muted small" data-testid="unavailable-services">
            {services
              .filter((s) => !s.available)
              .map((s) => (
                <li key={s.modelAlias}>
                  {t('studio.create.serviceUnavailable', { name: s.displayName })}. {t(whyNotCallable(s))}
                </li>
              ))}
          </ul>
        ) : null}
        {services.length === 0 && !servicesError ? (
          <p className="hint">{t('studio.create.noServices')}</p>
        ) : null}
      </div>

      {service && limits ? (
        <div className="create-grid">
          <div className="create-main">
            <div className="panel" aria-labelledby="prompt-title">
              <h2 id="prompt-title">{t('studio.create.prompt')}</h2>
              <textarea
                ref={promptRef}
                id="prompt"
                data-testid="prompt"
                className="input textarea"
                aria-describedby="prompt-count"
                value={form.prompt}
                disabled={submitted}
                onChange={(e) => change({ prompt: e.target.value })}
              />
              <p
                id="prompt-count"
                data-testid="prompt-count"
                className={count > limits.prompt.maxCodePoints ? 'count count-over' : 'count'}
              >
                {t('studio.create.promptCount', { count, max: limits.prompt.maxCodePoints })}
              </p>
              <p className="hint">{t('studio.create.promptHint')}</p>
              <ViolationList violations={violationsFor(violations, 'prompt')} testId="violations-prompt" />
              {stale.length || orphaned.length ? (
                <ul className="warnings" data-testid="stale-labels">
                  {stale.map((s) => (
                    <li key={`s-${s.params.start}`}>
                      {t('studio.create.staleLabel', { label: s.params.label })}
                    </li>
                  ))}
                  {orphaned
                    .filter((o) => form.prompt.includes(o.params.label))
                    .map((o) => (
                      <li key={`o-${o.params.start}`}>
                        {t('studio.create.orphanedLabel', { label: o.params.label })}
                      </li>
                    ))}
                </ul>
              ) : null}
            </div>
            <ReferenceComposer
              form={form}
              limits={limits}
              violations={violations}
              disabled={submitted}
              onChange={change}
              onOrphaned={setOrphaned}
              onInsertLabel={insertAtCursor}
            />
          </div>
          <div className="create-side">
            <ContractFields
              service={service}
              limits={limits}
              form={form}
              violations={violations}
              disabled={disabled}
              onChange={change}
              onModeChange={(mode) => change({ generationMode: mode })}
            />
            {unused.length ? (
              <div className="notice" data-testid="unused-inputs">
                <p>{t('studio.create.modeSwitchUnused')}</p>
                <ul>
                  {unused.map((u) => (
                    <li key={`${u.code}-${u.field ?? ''}`} data-code={u.code}>
                      {t(`studio.unused.${u.code.replace('mode_switch.', '')}`, {
                        ...u.params,
                        defaultValue: u.message,
                      })}
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
            <OptimizerPanel
              draftId={draft.id}
              limits={limits}
              style={form.style ?? ''}
              disabled={disabled}
              invalid={violations.length > 0}
              onStyle={(style) => change({ style })}
              onAccept={(prompt) => change({ prompt })}
            />
            <div className="panel" aria-labelledby="before-title">
              <h2 id="before-title">{t('studio.create.beforeGenerating')}</h2>
              <p data-testid="billing-summary">
                {t('studio.create.billing', {
                  seconds: form.seconds,
                  tier: form.resolutionTier,
                  orientation: form.orientation,
                  model: service.displayName,
                })}
              </p>
              <button
                type="button"
                className="button button-secondary"
                data-testid="check-admission"
                disabled={disabled || violations.length > 0}
                onClick={() => void checkAdmission()}
              >
                {t('studio.create.checkAdmission')}
              </button>
              {admission ? (
                <p
                  data-testid="admission-result"
                  className={admission.ok === false ? 'error-text' : 'ok-text'}
                >
                  {admission.text}
                </p>
              ) : null}
              <button
                type="button"
                className="button button-primary"
                data-testid="generate"
                disabled={reason !== null || submitting}
                aria-describedby="generate-reason"
                onClick={() => void generate()}
              >
                {submitting ? t('studio.create.generating') : t('studio.create.generate')}
              </button>
              {Object.entries(uploads).some(([k]) => k.startsWith(`${draft.id}\u0000`)) ? (
                <ul className="muted small" data-testid="upload-progress">
                  {Object.entries(uploads)
                    .filter(([k]) => k.startsWith(`${draft.id}\u0000`))
                    .map(([k, upload]) => {
                      const name = k.split('\u0000')[1];
                      const value =
                        upload.sentBytes !== null && upload.totalBytes
                          ? Math.min(100, Math.round((upload.sentBytes / upload.totalBytes) * 100))
                          : null;
                      return (
                        <li key={k} data-testid="upload-item">
                          <span>
                            {name}:{' '}
                            {t(`studio.create.upload.${upload.state}`, { defaultValue: upload.state })}
                            {value !== null && upload.state === 'uploading' ? ` ${value}%` : ''}
                          </span>
                          {upload.state !== 'reused' ? (
                            <Progress.Root
                              className="progress"
                              value={value}
                              data-testid="upload-bar"
                              aria-label={t('studio.create.upload.bar', { name })}
                            >
                              <Progress.Indicator
                                className={`progress-indicator${value === null ? ' progress-indeterminate' : ''}`}
                                style={{ transform: `translateX(-${100 - (value ?? 40)}%)` }}
                              />
                            </Progress.Root>
                          ) : null}
                        </li>
                      );
                    })}
                </ul>
              ) : null}
              {reason ? (
                <p id="generate-reason" className="hint" data-testid="generate-reason">
                  {t('studio.create.whyDisabled', { reason })}
                </p>
              ) : null}
              {submitMessage ? (
                <div
                  role={submitMessage.ok ? 'status' : 'alert'}
                  data-testid="submit-status"
                  className={submitMessage.ok ? 'ok-text' : 'error-text'}
                >
                  <p>{submitMessage.text}</p>
                  {submitMessage.pending ? (
                    <button
                      type="button"
                      className="button"
                      data-testid="resend"
                      disabled={submitting}
                      onClick={() => void generate()}
                    >
                      {t('studio.create.resend')}
                    </button>
                  ) : null}
                  {submitMessage.ok ? (
                    <button
                      type="button"
                      className="button"
                      data-testid="open-queue"
                      onClick={() => setSection('queue')}
                    >
                      {t('studio.create.openQueue')}
                    </button>
                  ) : null}
                </div>
              ) : null}
            </div>
            <Suspense fallback={null}>
              <BatchImport form={form} service={service} disabled={!service.available} />
            </Suspense>
          </div>
        </div>
      ) : null}
    </section>
  );
}

/** The reason shown for a service that is not callable: it says it is not available, or does not say. */
function whyNotCallable(s: StudioService): string {
  return s.availability === 'not_stated'
    ? 'studio.create.serviceAvailabilityNotStated'
    : 'studio.create.serviceUnavailableWhy';
}
