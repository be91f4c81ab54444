import { Dialog } from 'radix-ui';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobDetail, JobView } from '../../../../../shared/bridge/contract';
import { useStudio } from '../../../store';
import { SPEEDS, useReview } from '../../../store/review-store';
import { formatClock, fpsOf } from '../compare/frame-step';
import '../review-i18n';
import { MarkButtons } from '../MarkButtons';
import { NotesPanel, escapeBelongsToNotes, useTakeNotes } from './NotesPanel';
import { ReviewPlayer, kindOf } from './ReviewPlayer';
import {
  REVIEWER_SHORTCUTS,
  frameStart,
  onReviewerKey,
  runReviewerCommand,
  type ReviewerContext,
} from './reviewer-keys';
import { useReviewPlayer } from './use-review-player';

/** Request fields not listed among the settings: the prompt (shown above) and the inputs. */
const UNLISTED = new Set(['prompt', 'referenceInputs', 'inputs']);

const show = (v: unknown) =>
  v === undefined || v === null ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);

function TakeFacts({ detail, job }: { detail: JobDetail | null; job: JobView }) {
  const { t } = useTranslation();
  const spec =
    detail?.effectiveSpec && typeof detail.effectiveSpec === 'object'
      ? (detail.effectiveSpec as Record<string, unknown>)
      : {};
  const settings = Object.entries({ ...(detail?.requested ?? {}), ...spec }).filter(
    ([k]) => !UNLISTED.has(k),
  );
  return (
    <dl className="facts reviewer-facts" data-testid="reviewer-facts">
      <dt>{t('studio.library.prompt')}</dt>
      <dd data-testid="reviewer-prompt">{detail?.prompt ?? job.prompt}</dd>
      <dt>{t('studio.library.model')}</dt>
      <dd data-testid="reviewer-model">{job.model}</dd>
      <dt>{t('studio.library.seed')}</dt>
      <dd data-testid="reviewer-seed">{detail ? (detail.seed ?? t('studio.library.seedPlatform')) : '…'}</dd>
      {settings.length ? (
        <>
          <dt>{t('review.reviewer.settings')}</dt>
          <dd>
            <table className="spec-table reviewer-settings" data-testid="reviewer-settings">
              <tbody>
                {settings.map(([k, v]) => (
                  <tr key={k}>
                    <th scope="row">{k}</th>
                    <td>{show(v)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/**
 * The full-screen reviewer over a set of takes (the Library's filtered results or a collection),
 * a modal dialog that fills the window: one take at a time with its player, speed, frame steps,
 * an A–B loop, its prompt, model, seed and settings, its marks and its notes, all by keyboard
 * (`?` lists the keys, Esc closes). Marks are saved at once, for the take they were pressed on.
 */
export default function Reviewer({ items }: { items: readonly JobView[] }) {
  const { t } = useTranslation();
  const reviewer = useReview((s) => s.reviewer);
  const closeReviewer = useReview((s) => s.closeReviewer);
  const moveReviewer = useReview((s) => s.moveReviewer);
  const speed = useReview((s) => s.speed);
  const setSpeed = useReview((s) => s.setSpeed);
  const loop = useReview((s) => s.loop);
  const clearLoop = useReview((s) => s.clearLoop);
  const markTake = useReview((s) => s.markTake);
  const pendingMarks = useReview((s) => s.pendingMarks);
  const startNote = useReview((s) => s.startNote);
  const setDraftRect = useReview((s) => s.setDraftRect);
  const live = useStudio((s) => s.libraryItems);
  const libraryError = useStudio((s) => s.libraryError);
  const jobDetail = useStudio((s) => s.jobDetail);
  // the set as it was opened: a take marked out of the filter stays until the reviewer closes
  const [snapshot] = useState(() => new Map(items.map((j) => [j.rowId, j])));
  const [details, setDetails] = useState<Record<number, JobDetail>>({});
  const [help, setHelp] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const content = useRef<HTMLDivElement | null>(null);
  const noteInput = useRef<HTMLTextAreaElement | null>(null);

  const rowId = reviewer ? reviewer.ids[reviewer.index]! : null;
  const job = (rowId !== null && (live?.find((j) => j.rowId === rowId) ?? snapshot.get(rowId))) || null;
  const detail = rowId !== null ? (details[rowId] ?? null) : null;
  const fps = fpsOf(detail?.effectiveSpec);
  const playback = useReviewPlayer(fps, speed, loop);
  const notes = useTakeNotes(rowId ?? 0);
  const draft = useReview((s) => (s.noteDraft?.jobRowId === rowId ? s.noteDraft : null));

  useEffect(() => {
    if (rowId === null || details[rowId]) return;
    let cancelled = false;
    jobDetail(rowId).then(
      (d) => !cancelled && setDetails((all) => ({ ...all, [rowId]: d })),
      () => undefined, // the list's facts stay shown
    );
    return () => {
      cancelled = true;
    };
  }, [rowId, details, jobDetail]);

  // a screen reader hears the take it moved to, and each change of its marks
  const marks = job?.marks;
  const lastTake = useRef<number | null>(null);
  useEffect(() => {
    if (!reviewer || !job || !marks) return;
    const stars = t('studio.library.stars', { count: marks.stars });
    const flag = t(`review.reviewer.flag.${marks.flag ?? 'none'}`);
    setAnnouncement(
      lastTake.current === job.rowId
        ? t('review.reviewer.marked', { flag, stars })
        : t('review.reviewer.takeOf', {
            index: reviewer.index + 1,
            count: reviewer.ids.length,
            title: job.title || job.model,
          }),
    );
    lastTake.current = job.rowId;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [job?.rowId, marks?.flag, marks?.stars]);

  if (!reviewer || !job || rowId === null) return null;
  const output = job.outputs.find((o) => o.verified);
  const kind = kindOf(output?.mimeType);
  const context: ReviewerContext = {
    jobRowId: rowId,
    player: playback,
    toggleHelp: () => setHelp((h) => !h),
    focusNote: () => requestAnimationFrame(() => noteInput.current?.focus()),
  };
  const refocus = () => requestAnimationFrame(() => content.current?.focus());

  return (
    <Dialog.Root open onOpenChange={(open) => !open && closeReviewer()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          ref={content}
          className="reviewer"
          data-testid="reviewer"
          data-row-id={rowId}
          aria-describedby="reviewer-hint"
          aria-modal="true"
          tabIndex={-1}
          onOpenAutoFocus={(e) => {
            // the keys go to the reviewer itself (Space plays, it does not press the first button)
            e.preventDefault();
            content.current?.focus();
          }}
          onEscapeKeyDown={(e) => {
            if (escapeBelongsToNotes(e.target)) return e.preventDefault();
            if (help) {
              e.preventDefault();
              setHelp(false);
            }
          }}
          onKeyDown={(e) => void onReviewerKey(e, context)}
        >
          <header className="reviewer-head">
            <Dialog.Title className="reviewer-title">
              {t('review.reviewer.title', { index: reviewer.index + 1, count: reviewer.ids.length })}
            </Dialog.Title>
            <span className="reviewer-take-title" data-testid="reviewer-take-title">
              {job.title || job.model}
            </span>
            <p id="reviewer-hint" className="sr-only">
              {t('review.reviewer.hint')}
            </p>
            <div className="row">
              <button
                type="button"
                className="button"
                data-testid="reviewer-previous"
                aria-keyshortcuts="ArrowLeft J"
                disabled={reviewer.index === 0}
                onClick={() => moveReviewer(-1)}
              >
                {t('review.reviewer.previous')}
              </button>
              <button
                type="button"
                className="button"
                data-testid="reviewer-next"
                aria-keyshortcuts="ArrowRight L"
                disabled={reviewer.index === reviewer.ids.length - 1}
                onClick={() => moveReviewer(1)}
              >
                {t('review.reviewer.next')}
              </button>
              <button
                type="button"
                className="button button-secondary"
                data-testid="reviewer-help-toggle"
                aria-keyshortcuts="?"
                aria-expanded={help}
                aria-controls="reviewer-shortcuts"
                onClick={() => setHelp((h) => !h)}
              >
                {t('review.reviewer.shortcuts')}
              </button>
              <Dialog.Close className="button button-secondary" data-testid="reviewer-close">
                {t('studio.library.close')}
              </Dialog.Close>
            </div>
          </header>
          {help ? (
            <section
              id="reviewer-shortcuts"
              className="reviewer-shortcuts panel"
              data-testid="reviewer-shortcuts"
            >
              <h3>{t('review.reviewer.shortcuts')}</h3>
              <dl>
                {REVIEWER_SHORTCUTS.map((s) => (
                  <div key={s.what} className="shortcut">
                    <dt>
                      <kbd>{s.keys}</kbd>
                    </dt>
                    <dd>{t(`review.keys.${s.what}`)}</dd>
                  </div>
                ))}
              </dl>
            </section>
          ) : null}
          <div className="reviewer-body">
            <div className="reviewer-main">
              {output?.mediaUrl ? (
                <ReviewPlayer
                  key={rowId}
                  url={output.mediaUrl}
                  mimeType={output.mimeType}
                  playback={playback}
                  notes={notes}
                  draft={draft}
                  loop={loop}
                  testId="reviewer-player"
                  onDrawRect={(rect) => {
                    if (draft) setDraftRect(rect);
                    else startNote(rowId, kind === 'image' ? 0 : frameStart(playback), rect);
                    context.focusNote();
                  }}
                />
              ) : (
                <p className="muted">{t('review.reviewer.noMedia')}</p>
              )}
              {kind === 'image' ? null : (
                <div className="reviewer-controls row">
                  <div className="row" role="group" aria-label={t('review.reviewer.speed')}>
                    <span className="small muted" aria-hidden="true">
                      {t('review.reviewer.speed')}
                    </span>
                    {SPEEDS.map((s) => (
                      <button
                        key={s}
                        type="button"
                        className={`button button-small${speed === s ? '' : ' button-secondary'}`}
                        aria-pressed={speed === s}
                        data-testid={`reviewer-speed-${s}`}
                        onClick={() => setSpeed(s)}
                      >
                        {s}×
                      </button>
                    ))}
                  </div>
                  <div className="row" role="group" aria-label={t('review.reviewer.loop')}>
                    <button
                      type="button"
                      className="button button-small button-secondary"
                      aria-keyshortcuts="A"
                      data-testid="reviewer-loop-a"
                      onClick={() => runReviewerCommand({ kind: 'loopA' }, context)}
                    >
                      {t('review.reviewer.setA')}
                    </button>
                    <button
                      type="button"
                      className="button button-small button-secondary"
                      aria-keyshortcuts="B"
                      data-testid="reviewer-loop-b"
                      onClick={() => runReviewerCommand({ kind: 'loopB' }, context)}
                    >
                      {t('review.reviewer.setB')}
                    </button>
                    <button
                      type="button"
                      className="button button-small button-secondary"
                      aria-keyshortcuts="C"
                      data-testid="reviewer-loop-clear"
                      disabled={loop.a === null && loop.b === null}
                      onClick={clearLoop}
                    >
                      {t('review.reviewer.clearLoop')}
                    </button>
                    <output
                      className="small"
                      data-testid="reviewer-loop-range"
                      data-a={loop.a ?? ''}
                      data-b={loop.b ?? ''}
                    >
                      {loop.a !== null || loop.b !== null
                        ? t('review.reviewer.loopRange', {
                            a: loop.a === null ? '—' : formatClock(loop.a),
                            b: loop.b === null ? '—' : formatClock(loop.b),
                          })
                        : t('review.reviewer.noLoop')}
                    </output>
                  </div>
                </div>
              )}
            </div>
            <aside className="reviewer-side" aria-label={t('review.reviewer.aboutTake')}>
              <div className="card-marks" role="group" aria-label={t('studio.library.marks')}>
                <MarkButtons
                  marks={job.marks}
                  onMark={(change) => void markTake(rowId, change)}
                  testIdPrefix="reviewer"
                />
                {pendingMarks > 0 ? (
                  <span className="small muted" data-testid="reviewer-saving">
                    {t('review.reviewer.saving')}
                  </span>
                ) : null}
              </div>
              {libraryError ? (
                <p role="alert" className="error-banner small">
                  {t('errors.generic', { message: libraryError })}
                </p>
              ) : null}
              <TakeFacts detail={detail} job={job} />
              <NotesPanel
                jobRowId={rowId}
                notes={notes}
                playback={playback}
                inputRef={noteInput}
                timed={kind !== 'image'}
                drawable={kind !== 'audio'}
                onClosed={refocus}
              />
            </aside>
          </div>
          <p className="sr-only" aria-live="polite" data-testid="reviewer-announcement">
            {announcement}
          </p>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
