import { lazy, Suspense, useState } from 'react';
import { useFileDrop } from '../../components/use-file-drop';
import { useTranslation } from 'react-i18next';
import type { DraftForm, DraftMedia } from '../../../../shared/bridge/contract';
import {
  frameSlot,
  numberReferences,
  referenceKind,
  referenceRole,
  relabelPromptDetailed,
  reorderWithinKind,
  violationsFor,
  type EffectiveLimits,
  type StaleLabel,
  type Violation,
} from '../../../../shared/h3';
import { useStudio } from '../../store';
import { ViolationList } from './ViolationList';
import { describeMedia } from './form-model';

// a reference video or audio can be trimmed in place (the control loads with the first reference)
const ReferenceTrim = lazy(() => import('./ReferenceTrim'));

/** The drag type of a reference card being reordered (files from the desktop carry 'Files'). */
const REFERENCE_DRAG_TYPE = 'application/x-framewright-reference';

interface Props {
  form: DraftForm;
  limits: EffectiveLimits;
  violations: readonly Violation[];
  disabled: boolean;
  onChange(patch: Partial<DraftForm>): void;
  onOrphaned(labels: StaleLabel[]): void;
  onInsertLabel(label: string): void;
}

function Thumb({ media }: { media: DraftMedia }) {
  const mediaBase = useStudio((s) => s.mediaBase);
  return (
    <img
      className="thumb"
      src={`${mediaBase}staged/${media.id}/poster`}
      alt=""
      loading="lazy"
      data-testid="reference-thumb"
    />
  );
}

/** Drop or pick images, videos and audio; each is probed by the core and checked by the H3 rules. */
export function ReferenceComposer({
  form,
  limits,
  violations,
  disabled,
  onChange,
  onOrphaned,
  onInsertLabel,
}: Props) {
  const { t } = useTranslation();
  const stageFile = useStudio((s) => s.stageFile);
  const [staging, setStaging] = useState<string[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  const drop = useFileDrop();
  const mode = limits.modes[form.generationMode];
  const slots = new Set(
    Object.values(mode?.frames ?? {})
      .map((role) => frameSlot(role)?.slot)
      .filter((s) => s !== undefined),
  );
  const numbering = numberReferences(form.references);
  const labelOf = (id: string) => numbering.find((n) => n.referenceId === id);

  const addFiles = async (files: File[]) => {
    if (disabled || files.length === 0) return;
    setErrors([]);
    setStaging((s) => [...s, ...files.map((f) => f.name)]);
    const staged: DraftMedia[] = [];
    const failed: string[] = [];
    for (const file of files) {
      try {
        staged.push(await stageFile(file));
      } catch (error) {
        failed.push(`${file.name}: ${error instanceof Error ? error.message : String(error)}`);
      }
      setStaging((s) => s.filter((n) => n !== file.name));
    }
    setErrors(failed);
    // read the latest form: other edits may have happened while files were read
    const current = useStudio.getState().draft?.form ?? form;
    const patch: Partial<DraftForm> = {};
    const references = [...current.references];
    let first = current.firstFrame;
    let last = current.lastFrame;
    for (const m of staged) {
      if (slots.has('firstFrame') && !first && m.kind === 'image') first = patch.firstFrame = m;
      else if (slots.has('lastFrame') && !last && m.kind === 'image') last = patch.lastFrame = m;
      else references.push(m);
    }
    if (references.length !== current.references.length) patch.references = references;
    onChange(patch);
  };

  const setReferences = (next: DraftMedia[]) => {
    const result = relabelPromptDetailed(form.prompt, numbering, numberReferences(next));
    onOrphaned(result.orphaned);
    onChange({ references: next, prompt: result.prompt });
  };

  const move = (id: string, delta: number) => {
    const item = form.references.find((r) => r.id === id);
    if (!item) return;
    const kind = referenceKind(item);
    const sameKind = form.references.filter((r) => referenceKind(r) === kind);
    setReferences(reorderWithinKind(form.references, id, sameKind.indexOf(item) + delta));
  };

  const dropOnCard = (dragId: string, target: DraftMedia) => {
    if (dragId === target.id) return;
    const moving = form.references.find((r) => r.id === dragId);
    if (!moving || referenceKind(moving) !== referenceKind(target)) return;
    const sameKind = form.references.filter((r) => referenceKind(r) === referenceKind(target));
    setReferences(reorderWithinKind(form.references, dragId, sameKind.indexOf(target)));
  };

  const frameCard = (slot: 'firstFrame' | 'lastFrame') => {
    const media = form[slot];
    const used = slots.has(slot);
    if (!media && !used) return null;
    return (
      <div className={`ref-card${used ? '' : ' ref-unused'}`} data-testid={`frame-${slot}`} key={slot}>
        <strong>{t(slot === 'firstFrame' ? 'studio.create.firstFrame' : 'studio.create.lastFrame')}</strong>
        {media ? (
          <>
            <Thumb media={media} />
            <span className="ref-name">{media.fileName}</span>
            <span className="muted small">{describeMedia(media)}</span>
            {used ? null : <span className="muted small">{t('studio.create.unusedInMode')}</span>}
            <button
              type="button"
              className="button button-small"
              disabled={disabled}
              onClick={() => onChange({ [slot]: undefined })}
            >
              {t('studio.create.remove')}
            </button>
          </>
        ) : (
          <span className="muted small">{t('studio.create.dropHere')}</span>
        )}
        <ViolationList violations={violationsFor(violations, slot)} testId={`violations-${slot}`} />
      </div>
    );
  };

  return (
    <div className="panel" aria-labelledby="references-title">
      <h2 id="references-title">{t('studio.create.references')}</h2>
      <div
        className={`dropzone${drop.over ? ' dropzone-over' : ''}`}
        data-testid="dropzone"
        {...drop.handlers((files) => void addFiles(files))}
      >
        {t('studio.create.dropHere')}{' '}
        <label className="link-button">
          {t('studio.create.pickFiles')}
          <input
            type="file"
            multiple
            hidden
            data-testid="file-picker"
            accept="image/*,video/*,audio/*,.mov"
            disabled={disabled}
            onChange={(e) => {
              const files = [...(e.target.files ?? [])];
              e.target.value = '';
              void addFiles(files);
            }}
          />
        </label>
        {staging.map((name) => (
          <p key={name} className="muted small" data-testid="staging">
            {t('studio.create.staging', { name })}
          </p>
        ))}
        {errors.length ? (
          <ul className="violations" role="alert" data-testid="stage-errors">
            {errors.map((e) => (
              <li key={e} className="violation">
                {e}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      <div className="frames">
        {frameCard('firstFrame')}
        {frameCard('lastFrame')}
      </div>
      <ViolationList violations={violationsFor(violations, 'references')} testId="violations-references" />
      <ol className="ref-list" data-testid="reference-list">
        {form.references.map((ref) => {
          const n = labelOf(ref.id)!;
          const label = t(`studio.create.label.${n.kind}`, { number: n.number });
          const ownViolations = violationsFor(violations, { referenceId: ref.id });
          return (
            <li
              key={ref.id}
              className={`ref-card${mode?.referenceInputs ? '' : ' ref-unused'}${ownViolations.length ? ' ref-bad' : ''}`}
              data-testid="reference-card"
              data-label={n.label}
              data-file={ref.fileName}
              draggable={!disabled}
              onDragStart={(e) => {
                // the dragged id travels with the drag itself, not in React state that may not
                // have re-rendered by the first dragover
                e.dataTransfer.setData(REFERENCE_DRAG_TYPE, ref.id);
                e.dataTransfer.effectAllowed = 'move';
              }}
              onDragOver={(e) => {
                if (!e.dataTransfer.types.includes(REFERENCE_DRAG_TYPE)) return;
                e.preventDefault();
                e.dataTransfer.dropEffect = 'move';
              }}
              onDrop={(e) => {
                const dragId = e.dataTransfer.getData(REFERENCE_DRAG_TYPE);
                if (!dragId) return;
                e.preventDefault();
                e.stopPropagation();
                dropOnCard(dragId, ref);
              }}
            >
              <strong className="ref-label" data-testid="reference-label">
                {label}
              </strong>
              <Thumb media={ref} />
              <span className="ref-name">{ref.fileName}</span>
              <span className="muted small">
                {t(`studio.create.role.${referenceRole(ref)}`)}
                {ref.hasAudioTrack && ref.kind === 'video' ? ` · ${t('studio.create.withAudio')}` : ''}
              </span>
              <span className="muted small">{describeMedia(ref)}</span>
              {mode?.referenceInputs ? null : (
                <span className="muted small">{t('studio.create.unusedInMode')}</span>
              )}
              <div className="ref-actions">
                <button
                  type="button"
                  className="button button-small"
                  data-testid="insert-label"
                  disabled={disabled}
                  onClick={() => onInsertLabel(n.label)}
                  title={t('studio.create.insertLabel', { label: n.label })}
                >
                  + {n.label}
                </button>
                <button
                  type="button"
                  className="button button-small"
                  data-testid="move-earlier"
                  aria-label={t('studio.create.moveEarlier')}
                  disabled={disabled}
                  onClick={() => move(ref.id, -1)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className="button button-small"
                  data-testid="move-later"
                  aria-label={t('studio.create.moveLater')}
                  disabled={disabled}
                  onClick={() => move(ref.id, 1)}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className="button button-small"
                  data-testid="remove-reference"
                  disabled={disabled}
                  onClick={() => setReferences(form.references.filter((r) => r.id !== ref.id))}
                >
                  {t('studio.create.remove')}
                </button>
              </div>
              <ViolationList violations={ownViolations} testId="reference-violations" />
              <Suspense>
                <ReferenceTrim id={ref.id} label={label} />
              </Suspense>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
