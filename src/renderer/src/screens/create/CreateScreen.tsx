import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { insertLabel, type StaleLabel } from '../../../../shared/h3';
import { useStudio } from '../../store';
import '../../theme/studio.css';
import { ContractFields } from './ContractFields';
import { CreateHeader } from './CreateHeader';
import { GeneratePanel } from './GeneratePanel';
import { PromptField } from './PromptField';
import { ReferenceComposer } from './ReferenceComposer';
import { ProjectPicker } from './ProjectPicker';
import { ServicePicker } from './ServicePicker';
import { useCreateForm } from './use-create-form';

// "Import prompts…" (its dialog included) sits below the form, and the optional prompt optimizer
// beside it: they load after the first paint (the first chunk's budget, see the renderer README).
const BatchImport = lazy(() => import('./BatchImport').then((m) => ({ default: m.BatchImport })));
const OptimizerPanel = lazy(() => import('./OptimizerPanel').then((m) => ({ default: m.OptimizerPanel })));
// what a mode switch leaves unused, with the rules that find it (room in the first chunk for the reference trim)
const UnusedInputs = lazy(() => import('./UnusedInputs').then((m) => ({ default: m.UnusedInputs })));

/** Create: a video from the live contract of the chosen service. */
export function CreateScreen() {
  const { t } = useTranslation();
  const { draft, form, service, limits, violations, submitted, locked, disabled } = useCreateForm();
  const draftError = useStudio((s) => s.draftError);
  const editForm = useStudio((s) => s.editForm);
  const capabilities = useStudio((s) => s.info?.capabilities);
  const admission = useStudio((s) => s.admission);
  const promptRef = useRef<HTMLTextAreaElement>(null);
  const [orphaned, setOrphaned] = useState<StaleLabel[]>([]);

  useEffect(() => {
    const { loadCreate, resetCreateStatus } = useStudio.getState();
    void loadCreate();
    // the admission answer and the submit outcome are of this visit
    return resetCreateStatus;
  }, []);

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

  const insertAtCursor = (label: string) => {
    const el = promptRef.current;
    const result = insertLabel(
      form.prompt,
      el ? el.selectionStart : form.prompt.length,
      label,
      el?.selectionEnd,
    );
    editForm({ prompt: result.prompt });
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(result.cursor, result.cursor);
    });
  };

  const reason = submitted
    ? t('studio.create.reasonSubmitted')
    : !service?.available
      ? t('studio.create.reasonNoService')
      : violations.length > 0
        ? t('studio.create.reasonInvalid', { count: violations.length })
        : // where the backend's admission check gates Generate (the platform's dry-run), its blockers
          // stop Generate until the form changes
          capabilities?.admissionGatesGenerate &&
            admission?.kind === 'answered' &&
            admission.admitted === false
          ? admission.reason
          : null;

  return (
    <section className="screen create-screen" aria-labelledby="create-title">
      <CreateHeader submitted={submitted} />
      <ServicePicker service={service} disabled={locked} />
      <ProjectPicker draftId={draft.id} disabled={locked} />
      {service && limits ? (
        <div className="create-grid">
          <div className="create-main">
            <PromptField
              form={form}
              limits={limits}
              violations={violations}
              disabled={locked}
              orphaned={orphaned}
              promptRef={promptRef}
            />
            <ReferenceComposer
              form={form}
              limits={limits}
              violations={violations}
              disabled={locked}
              onChange={editForm}
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
              onChange={editForm}
              onModeChange={(mode) => editForm({ generationMode: mode })}
            />
            <Suspense>
              <UnusedInputs form={form} limits={limits} />
            </Suspense>
            {/* the prompt optimizer and batch import: where the backend offers them */}
            {!capabilities?.promptOptimization ? null : (
              <Suspense fallback={null}>
                <OptimizerPanel
                  limits={limits}
                  style={form.style ?? ''}
                  disabled={disabled}
                  invalid={violations.length > 0}
                  onStyle={(style) => editForm({ style })}
                  onAccept={(prompt) => editForm({ prompt })}
                />
              </Suspense>
            )}
            {!capabilities?.batchImport ? null : (
              <Suspense fallback={null}>
                <BatchImport form={form} service={service} disabled={!service.available} />
              </Suspense>
            )}
          </div>
        </div>
      ) : null}
      {/* last in the screen and sticky: Generate stays in view at any scroll position */}
      {service && limits ? (
        <GeneratePanel
          draftId={draft.id}
          form={form}
          service={service}
          disabled={disabled}
          reason={reason}
          invalid={violations.length > 0}
        />
      ) : null}
    </section>
  );
}
