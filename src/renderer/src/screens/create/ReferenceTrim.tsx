import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DraftMedia } from '../../../../shared/bridge/contract';
import {
  referenceKind,
  referenceRole,
  sameTarget,
  type EffectiveLimits,
  type ReferenceTrim as Trim,
  type Violation,
} from '../../../../shared/h3';
import { useStudio } from '../../store';
import { useCreateForm } from './use-create-form';
import './reference-trim-i18n';

/** The rules a shorter range can fix: the kept length, the size, the combined length of its kind. */
function trimCanFix(v: Violation, ref: DraftMedia): boolean {
  const kind = referenceKind(ref);
  if (sameTarget(v.target, { referenceId: ref.id }))
    return /^reference\.(\w+_too_long|too_large)$/.test(v.code);
  return v.code === `references.${kind}_total_too_long`;
}

const round = (seconds: number, step: number) => Math.round(seconds / step) * step;
/** To the millisecond the cut is named by: no float noise in the draft. */
const ms = (seconds: number) => Math.round(seconds * 1000) / 1000;
const shown = (seconds: number) => `${Math.round(seconds * 100) / 100}`;

/**
 * A dropped reference video or audio cut to a range in place: a preview, and start and end sliders
 * (arrow keys move them by a frame, or by 10 ms for audio). Each move saves the range in the draft,
 * so the form's rules run again on the kept length at once: Generate stays refused, with the rule's
 * own message, until the range passes. Main sends only the kept range (the file never changes).
 */
export default function ReferenceTrim({ id, label }: { id: string; label: string }) {
  const { t } = useTranslation();
  const editForm = useStudio((s) => s.editForm);
  const { form, limits, violations, submitted: disabled } = useCreateForm();
  const ref = form?.references.find((r) => r.id === id);
  const fixable = ref ? violations.filter((v) => trimCanFix(v, ref)) : [];
  // open when the rules ask for a shorter range, while a range is kept, or when asked for
  const [opened, setOpened] = useState(false);
  const open = opened || ref?.trim !== undefined || fixable.length > 0;
  // an image (no duration) has nothing to trim
  if (!form || !limits || !ref || !((ref.durationSeconds ?? 0) > 0)) return null;
  if (!open)
    return (
      <button
        type="button"
        className="button button-small"
        data-testid="trim-open"
        disabled={disabled}
        onClick={() => setOpened(true)}
      >
        {t('referenceTrim.open')}
      </button>
    );
  const onTrim = (trim: Trim | undefined) =>
    editForm({ references: form.references.map((r) => (r.id === id ? { ...r, trim } : r)) });
  return (
    <TrimControl
      reference={ref}
      label={label}
      limits={limits}
      fixable={fixable.length > 0}
      disabled={disabled}
      onTrim={onTrim}
    />
  );
}

function TrimControl({
  reference: ref,
  label,
  limits,
  fixable,
  disabled,
  onTrim,
}: {
  reference: DraftMedia;
  label: string;
  limits: EffectiveLimits;
  /** The rules still refuse the reference for something a shorter range can fix. */
  fixable: boolean;
  disabled: boolean;
  onTrim(trim: Trim | undefined): void;
}) {
  const { t } = useTranslation();
  const mediaBase = useStudio((s) => s.mediaBase);
  const media = useRef<HTMLVideoElement & HTMLAudioElement>(null);
  const duration = ref.durationSeconds;
  if (typeof duration !== 'number' || !(duration > 0)) return null;
  const isVideo = referenceKind(ref) === 'video';
  const step = isVideo ? 1 / (limits.fps ?? 24) : 0.01;
  const trim = ref.trim ?? { startSeconds: 0, endSeconds: duration };
  const kept = trim.endSeconds - trim.startSeconds;

  // the longest start of the file the rules can take: the per-clip limit, the size share
  const rl = limits.uploadLimits[referenceRole(ref)];
  const bySize = rl && ref.byteSize > rl.maxBytes ? (duration * rl.maxBytes * 0.9) / ref.byteSize : duration;
  const suggested = Math.floor(Math.min(duration, rl?.maxSeconds ?? duration, bySize) / step) * step;

  const seek = (seconds: number) => {
    if (media.current) media.current.currentTime = seconds;
  };
  const set = (next: Trim) => {
    const whole = next.startSeconds <= 0 && next.endSeconds >= duration;
    const endSeconds = Math.min(ms(next.endSeconds), Math.floor(duration * 1000) / 1000);
    onTrim(whole ? undefined : { startSeconds: ms(next.startSeconds), endSeconds });
  };
  const slider = (edge: 'start' | 'end') => (
    <label className="trim-slider">
      <span>{t(edge === 'start' ? 'referenceTrim.start' : 'referenceTrim.end')}</span>
      <input
        type="range"
        min={0}
        max={duration}
        step={step}
        value={edge === 'start' ? trim.startSeconds : trim.endSeconds}
        disabled={disabled}
        data-testid={`trim-${edge}`}
        aria-valuetext={`${shown(edge === 'start' ? trim.startSeconds : trim.endSeconds)} s`}
        onChange={(e) => {
          const value = round(Number(e.target.value), step);
          const next =
            edge === 'start'
              ? { ...trim, startSeconds: Math.min(value, trim.endSeconds - step) }
              : { ...trim, endSeconds: Math.max(value, trim.startSeconds + step) };
          seek(edge === 'start' ? next.startSeconds : next.endSeconds);
          set({
            startSeconds: Math.max(0, next.startSeconds),
            endSeconds: Math.min(duration, next.endSeconds),
          });
        }}
      />
    </label>
  );

  return (
    <fieldset className="reference-trim" data-testid="reference-trim">
      <legend>{t('referenceTrim.title', { label })}</legend>
      {isVideo ? (
        <video ref={media} src={`${mediaBase}staged/${ref.id}`} preload="metadata" muted playsInline />
      ) : (
        <audio ref={media} src={`${mediaBase}staged/${ref.id}`} preload="metadata" controls />
      )}
      {slider('start')}
      {slider('end')}
      <p className="small" data-testid="trim-kept">
        {t('referenceTrim.kept', {
          start: shown(trim.startSeconds),
          end: shown(trim.endSeconds),
          length: shown(kept),
          total: shown(duration),
        })}
      </p>
      {fixable ? null : (
        <p className="small trim-passes" data-testid="trim-passes">
          {t('referenceTrim.passes')}
        </p>
      )}
      <p className="muted small">{t('referenceTrim.hint')}</p>
      <div className="ref-actions">
        <button
          type="button"
          className="button button-small"
          disabled={disabled}
          onClick={() => {
            const el = media.current;
            if (!el) return;
            el.currentTime = trim.startSeconds;
            const stop = () => {
              if (el.currentTime < trim.endSeconds) return;
              el.pause();
              el.removeEventListener('timeupdate', stop);
            };
            el.addEventListener('timeupdate', stop);
            void el.play().catch(() => undefined);
          }}
        >
          {t('referenceTrim.playRange')}
        </button>
        {suggested > 0 && suggested < duration ? (
          <button
            type="button"
            className="button button-small"
            data-testid="trim-suggest"
            disabled={disabled}
            onClick={() => set({ startSeconds: 0, endSeconds: suggested })}
          >
            {t('referenceTrim.suggest', { seconds: shown(suggested) })}
          </button>
        ) : null}
        {ref.trim ? (
          <button
            type="button"
            className="button button-small"
            data-testid="trim-whole"
            disabled={disabled}
            onClick={() => onTrim(undefined)}
          >
            {t('referenceTrim.whole')}
          </button>
        ) : null}
      </div>
    </fieldset>
  );
}
