import {
  useEffect,
  useRef,
  useState,
  type FocusEvent,
  type HTMLAttributes,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { JobView, OutputView } from '../../../../shared/bridge/contract';
import { formatDuration } from '../../../../shared/format-duration';
import { MAX_STARS } from '../../../../shared/library-marks';
import { MarkButtons, type MarkButtonsChange } from './MarkButtons';

/** How long each frame shows while a card has keyboard focus (the preview plays through them). */
const FOCUS_FRAME_MS = 700;

/** The frame under the pointer: the card's width split into one equal part per frame. */
export function frameAt(fraction: number, count: number): number {
  if (count <= 0 || !Number.isFinite(fraction)) return 0;
  return Math.min(count - 1, Math.max(0, Math.floor(fraction * count)));
}

const reducedMotion = () =>
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

/**
 * The card's picture: the poster, and for a video, while the pointer moves across it, the frame
 * for that position (the core makes the frames on the first request); keyboard focus plays through
 * them. Leaving, or a frame that does not load, restores the poster.
 */
function usePreview(output: OutputView | undefined) {
  const frames = output?.frameUrls ?? [];
  const [frame, setFrame] = useState<number | null>(null);
  const [focused, setFocused] = useState(false);
  const [broken, setBroken] = useState(false);
  const warmed = useRef(false);
  const usable = frames.length > 0 && !broken;

  /** The first hover or focus asks for every frame at once, so scrubbing does not wait on each. */
  const warm = () => {
    if (warmed.current || !usable) return;
    warmed.current = true;
    for (const url of frames) {
      const image = new Image();
      image.src = url;
    }
  };

  useEffect(() => {
    if (!focused || !usable || reducedMotion()) return;
    let n = 0;
    const timer = setInterval(() => {
      n = (n + 1) % frames.length;
      setFrame(n);
    }, FOCUS_FRAME_MS);
    return () => clearInterval(timer);
  }, [focused, usable, frames.length]);

  const src = usable && frame !== null ? frames[frame] : (output?.posterUrl ?? undefined);
  return {
    src,
    frame: usable ? frame : null,
    handlers: {
      onPointerEnter: warm,
      onPointerMove: (e: PointerEvent<HTMLElement>) => {
        if (!usable) return;
        warm();
        const rect = e.currentTarget.getBoundingClientRect();
        setFrame(frameAt((e.clientX - rect.left) / rect.width, frames.length));
      },
      onPointerLeave: () => setFrame(null),
      onFocus: (e: FocusEvent<HTMLElement>) => {
        // keyboard focus plays the frames; a click's focus (it opens the result) does not
        if (!e.currentTarget.matches(':focus-visible')) return;
        warm();
        setFocused(true);
        if (usable && !reducedMotion()) setFrame(0);
      },
      onBlur: () => {
        setFocused(false);
        setFrame(null);
      },
    },
    onImageError: () => {
      if (frame !== null) setBroken(true);
    },
  };
}

/** A change of a result's marks, as `library.mark` takes it (without the row). */
export type MarkChange = MarkButtonsChange;

/**
 * The single keys that mark the focused result (Lightroom's): P pick, X reject, U unflag, 0–5
 * stars. Null for any other key, or one held with a modifier (those belong to the browser).
 */
export function markOfKey(
  event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>,
): MarkChange | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  const key = event.key.toLowerCase();
  if (key === 'p') return { flag: 'pick' };
  if (key === 'x') return { flag: 'reject' };
  if (key === 'u') return { flag: null };
  if (/^[0-9]$/.test(key) && Number(key) <= MAX_STARS) return { stars: Number(key) };
  return null;
}

export interface LibraryCardProps {
  job: JobView;
  selected: boolean;
  onOpen(): void;
  onToggleCompare(): void;
  /** Marks the result (its flag or stars); keys P, X, U and 0–5 on the focused card do too. */
  onMark(change: MarkChange): void;
  /** "Show its group", offered on a variation while the gallery shows every result. */
  onShowGroup?: () => void;
  /** Whether it is selected for a collection (its checkbox). */
  checked?: boolean;
  /** Toggles it in the selection; `range` (Shift) selects from the last one toggled to it. */
  onCheck?: (range: boolean) => void;
  /** Enter on its picture: the full-screen reviewer, starting at it (a click opens the detail). */
  onReview?: () => void;
  /** While the Library shows a collection: its place in it, moved by hand or removed from it. */
  inCollection?: {
    position: number;
    count: number;
    onMove(delta: number): void;
    onRemove(): void;
    /** Dragging it onto another card moves it there. */
    dragProps: HTMLAttributes<HTMLLIElement>;
  };
}

/** One result of the Library: its picture (a scrub preview for videos) and the facts to scan by. */
export function LibraryCard({
  job,
  selected,
  onOpen,
  onToggleCompare,
  onMark,
  onShowGroup,
  checked = false,
  onCheck,
  onReview,
  inCollection,
}: LibraryCardProps) {
  const { t, i18n } = useTranslation();
  const output = job.outputs.find((o) => o.verified);
  const preview = usePreview(output);
  const rangeClick = useRef(false);
  const at = job.completedAt ?? job.acceptedAt;
  const date = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
  const mode = job.generationMode
    ? t(`modeName.${job.generationMode}`, { defaultValue: job.generationMode })
    : t(`studio.queue.kind.${job.serviceKind}`, { defaultValue: job.serviceKind });
  return (
    <li
      className={`gallery-card${job.variation ? ' variation-card' : ''}${selected ? ' gallery-card-selected' : ''}`}
      data-testid="library-card"
      data-row-id={job.rowId}
      data-group-id={job.variation?.groupId}
      data-flag={job.marks.flag ?? 'unmarked'}
      data-stars={job.marks.stars}
      data-checked={checked}
      {...inCollection?.dragProps}
      onKeyDown={(e) => {
        if (inCollection && e.altKey && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
          e.preventDefault();
          inCollection.onMove(e.key === 'ArrowLeft' ? -1 : 1);
          return;
        }
        const change = markOfKey(e);
        if (!change) return;
        e.preventDefault();
        onMark(change);
      }}
    >
      <button
        type="button"
        className="gallery-open"
        onClick={onOpen}
        onKeyDown={(e) => {
          if (!onReview || e.key !== 'Enter' || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
          e.preventDefault();
          onReview();
        }}
        aria-keyshortcuts={onReview ? 'Enter' : undefined}
        data-testid="library-open"
        {...preview.handlers}
      >
        {preview.src ? (
          <img
            className="poster"
            src={preview.src}
            alt=""
            loading="lazy"
            data-testid="library-preview"
            data-frame={preview.frame ?? undefined}
            onError={preview.onImageError}
          />
        ) : null}
        <span className="gallery-prompt">{job.title || job.model}</span>
      </button>
      <dl className="card-facts small" data-testid="library-facts">
        {job.seconds !== null ? (
          <div className="card-fact">
            <dt className="sr-only">{t('studio.library.factDuration')}</dt>
            <dd data-testid="card-duration">{formatDuration(job.seconds)}</dd>
          </div>
        ) : null}
        <div className="card-fact">
          <dt className="sr-only">{t('studio.library.model')}</dt>
          <dd data-testid="card-model">{job.model}</dd>
        </div>
        <div className="card-fact">
          <dt className="sr-only">{t('studio.library.mode')}</dt>
          <dd data-testid="card-mode">{mode}</dd>
        </div>
        <div className="card-fact">
          <dt className="sr-only">{t('studio.library.factDate')}</dt>
          <dd>
            <time dateTime={new Date(at).toISOString()} data-testid="card-date">
              {date}
            </time>
          </dd>
        </div>
        {output?.verification ? (
          <div className="card-fact">
            <dt className="sr-only">{t('studio.library.factVerification')}</dt>
            {output.verification === 'verified' ? (
              <dd className="ok-text" data-testid="card-verified">
                ✓ {t('studio.library.verified')}
              </dd>
            ) : (
              <dd className="muted" data-testid="card-not-verifiable">
                {t('studio.library.notVerifiable')}
              </dd>
            )}
          </div>
        ) : null}
      </dl>
      <div className="card-marks" role="group" aria-label={t('studio.library.marks')}>
        <MarkButtons marks={job.marks} onMark={onMark} testIdPrefix="library" />
      </div>
      <div className="card-actions">
        {onCheck ? (
          <label className="card-check small">
            <input
              type="checkbox"
              checked={checked}
              data-testid="library-check"
              aria-label={t('review.selection.select', { title: job.title || job.model })}
              onClick={(e) => {
                // Shift+click selects the range; the change itself comes from onChange
                rangeClick.current = e.shiftKey;
              }}
              onChange={() => {
                onCheck(rangeClick.current);
                rangeClick.current = false;
              }}
            />
            <span aria-hidden="true">{t('review.selection.selectShort')}</span>
          </label>
        ) : null}
        <button
          type="button"
          className="button button-small compare-toggle"
          aria-pressed={selected}
          data-testid="library-select"
          onClick={onToggleCompare}
        >
          <span aria-hidden="true" className="compare-toggle-mark">
            {selected ? '✓' : '+'}
          </span>{' '}
          {t('studio.library.selectToCompare')}
        </button>
        {job.variation ? (
          <span className="badge variation-badge" data-testid="library-variation">
            {t('studio.library.variationBadge', {
              index: job.variation.index + 1,
              count: job.variation.count,
            })}
          </span>
        ) : null}
        {job.variation && onShowGroup ? (
          <button
            type="button"
            className="link-button small"
            data-testid="library-show-group"
            onClick={onShowGroup}
          >
            {t('studio.library.showGroup')}
          </button>
        ) : null}
      </div>
      {inCollection ? (
        <div
          className="card-order"
          role="group"
          aria-label={t('review.collections.place', {
            position: inCollection.position + 1,
            count: inCollection.count,
          })}
        >
          <span className="small muted" aria-hidden="true" data-testid="card-position">
            {inCollection.position + 1}
          </span>
          <button
            type="button"
            className="button button-small button-secondary"
            data-testid="card-move-earlier"
            aria-keyshortcuts="Alt+ArrowLeft"
            aria-label={t('review.collections.moveEarlierLabel', { title: job.title || job.model })}
            disabled={inCollection.position === 0}
            onClick={() => inCollection.onMove(-1)}
          >
            <span aria-hidden="true">←</span>
          </button>
          <button
            type="button"
            className="button button-small button-secondary"
            data-testid="card-move-later"
            aria-keyshortcuts="Alt+ArrowRight"
            aria-label={t('review.collections.moveLaterLabel', { title: job.title || job.model })}
            disabled={inCollection.position === inCollection.count - 1}
            onClick={() => inCollection.onMove(1)}
          >
            <span aria-hidden="true">→</span>
          </button>
          <button
            type="button"
            className="link-button small"
            data-testid="card-remove-from-collection"
            onClick={inCollection.onRemove}
          >
            {t('review.collections.remove')}
          </button>
        </div>
      ) : null}
    </li>
  );
}
