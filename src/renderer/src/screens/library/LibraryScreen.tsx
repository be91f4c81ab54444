import { Dialog } from 'radix-ui';
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobDetail, JobView } from '../../../../shared/bridge/contract';
import { formatDuration } from '../../../../shared/format-duration';
import { EmptyState } from '../../components/EmptyState';
import { useStudio } from '../../store';
import '../../theme/studio.css';
import { CompareDialog } from './compare/CompareDialog';
import {
  byRating,
  MARK_FLAG_FILTERS,
  MAX_STARS,
  type MarkFlagFilter,
} from '../../../../shared/library-marks';
import { LibraryCard } from './LibraryCard';
import { LibraryFilms } from './LibraryFilms';
import { moveTo, useReview } from '../../store/review-store';
import { CollectionPicker, CollectionTools, SelectionBar } from './collections/CollectionsBar';
import { fpsOf } from './compare/frame-step';
import './review-i18n';
import { escapeBelongsToNotes } from './review/NotesPanel';
import { TakeWithNotes } from './review/TakeWithNotes';

/** The full-screen reviewer: its own chunk, loaded when first opened. */
const Reviewer = lazy(() => import('./review/Reviewer'));

interface Filters {
  query: string;
  profileId: string;
  model: string;
  mode: string;
  from: string;
  to: string;
  /** pick, reject or unmarked ('' any) */
  flag: string;
  /** at least this many stars ('' any) */
  minStars: string;
  /** '' newest first (a collection: its order), or 'rating' */
  sort: string;
}

const EMPTY: Filters = {
  query: '',
  profileId: '',
  model: '',
  mode: '',
  from: '',
  to: '',
  flag: '',
  minStars: '',
  sort: '',
};

function Player({ url, mimeType, testId }: { url: string; mimeType: string | null; testId: string }) {
  const { t } = useTranslation();
  if (mimeType?.startsWith('image/')) return <img className="player" src={url} alt="" data-testid={testId} />;
  if (mimeType?.startsWith('audio/'))
    return <audio className="player" src={url} controls data-testid={testId} />;
  // a document parse's result (JSON) is no media: it is opened, not played
  if (mimeType && !mimeType.startsWith('video/'))
    return (
      <a className="button" href={url} target="_blank" rel="noreferrer" data-testid="detail-document">
        {t('studio.library.openResult', { type: mimeType })}
      </a>
    );
  return <video className="player" src={url} controls preload="auto" playsInline data-testid={testId} />;
}

/**
 * Request fields the detail does not tabulate: the prompt (shown above) and the inputs, which on
 * the platform carry signed read URLs (a person's media by address) — their files are the
 * references shown below.
 */
const UNTABULATED = new Set(['prompt', 'referenceInputs', 'inputs']);

function SpecTable({ requested, effective }: { requested: Record<string, unknown>; effective: unknown }) {
  const { t } = useTranslation();
  const eff = effective && typeof effective === 'object' ? (effective as Record<string, unknown>) : {};
  const keys = [...new Set([...Object.keys(requested), ...Object.keys(eff)])].filter(
    (k) => !UNTABULATED.has(k),
  );
  const show = (v: unknown) =>
    v === undefined ? '—' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return (
    <table className="spec-table" data-testid="spec-table">
      <thead>
        <tr>
          <th />
          <th>{t('studio.library.requested')}</th>
          <th>{t('studio.library.effective')}</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((k) => (
          <tr key={k}>
            <th scope="row">{k}</th>
            <td>{show(requested[k])}</td>
            <td>{show(eff[k])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the platform makes a marked copy of (spec, "Create export"). */
const MARKED_EXPORT_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'video/mp4']);

function Detail({ jobRowId, onClose, onDeleted }: { jobRowId: number; onClose(): void; onDeleted(): void }) {
  const { t } = useTranslation();
  const copyToCreate = useStudio((s) => s.copyToCreate);
  const jobDetail = useStudio((s) => s.jobDetail);
  const revealInLibrary = useStudio((s) => s.revealInLibrary);
  const deleteFromLibrary = useStudio((s) => s.deleteFromLibrary);
  const markedExport = useStudio((s) => s.info?.capabilities.markedExport === true);
  const exportMarked = useStudio((s) => s.exportMarked);
  const exportRunning = useStudio((s) => s.exporting.includes(jobRowId));
  const exportError = useStudio((s) => s.exportErrors[jobRowId]);
  const [detail, setDetail] = useState<JobDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [revealed, setRevealed] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  useEffect(() => {
    jobDetail(jobRowId).then(setDetail, (e: unknown) => setError(String(e)));
  }, [jobRowId, jobDetail]);
  const output = detail?.outputs.find((o) => o.verified);
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog-content dialog-wide"
          data-testid="library-detail"
          aria-describedby={undefined}
          onEscapeKeyDown={(e) => {
            if (escapeBelongsToNotes(e.target)) e.preventDefault();
          }}
        >
          <Dialog.Title>{t('studio.library.detail')}</Dialog.Title>
          {error ? <p role="alert">{error}</p> : null}
          {detail && output?.mediaUrl ? (
            <div className="detail-grid">
              {output.mimeType === null ||
              output.mimeType.startsWith('video/') ||
              output.mimeType.startsWith('image/') ? (
                <TakeWithNotes
                  jobRowId={jobRowId}
                  output={{ ...output, mediaUrl: output.mediaUrl }}
                  fps={fpsOf(detail.effectiveSpec)}
                  testId="detail-player"
                />
              ) : (
                <Player url={output.mediaUrl} mimeType={output.mimeType} testId="detail-player" />
              )}
              <dl className="facts">
                <dt>{t('studio.library.prompt')}</dt>
                <dd data-testid="detail-prompt">{detail.prompt}</dd>
                {detail.optimizedPrompt ? (
                  <>
                    <dt>{t('studio.library.optimizedPrompt')}</dt>
                    <dd>{detail.optimizedPrompt}</dd>
                  </>
                ) : null}
                <dt>{t('studio.library.seed')}</dt>
                <dd data-testid="detail-seed">{detail.seed ?? t('studio.library.seedPlatform')}</dd>
                <dt>{t('studio.library.sha256')}</dt>
                <dd>
                  <code className="hash" data-testid="detail-sha256">
                    {output.sha256}
                  </code>{' '}
                  {output.verification === 'verified' ? (
                    <span className="ok-text" data-testid="detail-verified">
                      ✓ {t('studio.library.verified')}
                    </span>
                  ) : output.verification === 'not_verifiable' ? (
                    <span
                      className="muted small"
                      data-testid="detail-not-verifiable"
                      title={t('studio.library.notVerifiableHint')}
                    >
                      {t('studio.library.notVerifiable')}
                    </span>
                  ) : null}
                </dd>
                <dt>{t('studio.library.timings')}</dt>
                <dd>
                  {t('studio.queue.elapsed', { s: Math.round(detail.elapsedSeconds ?? 0) })} ·{' '}
                  {t('studio.queue.queuedFor', { s: Math.round(detail.queuedSeconds ?? 0) })} ·{' '}
                  {t('studio.queue.runningFor', { s: Math.round(detail.runningSeconds ?? 0) })}
                </dd>
                {detail.stages.some((stage) => stage.seconds !== null) ? (
                  <>
                    <dt>{t('studio.library.stages')}</dt>
                    <dd data-testid="detail-stages">
                      {detail.stages
                        .filter((stage) => stage.seconds !== null)
                        .map((stage) =>
                          t('studio.library.stageLasted', {
                            stage: stage.stage ?? stage.status,
                            time: formatDuration(stage.seconds!),
                          }),
                        )
                        .join(' · ')}
                    </dd>
                  </>
                ) : null}
              </dl>
              <SpecTable requested={detail.requested} effective={detail.effectiveSpec} />
              {detail.references.length ? (
                <div>
                  <h3>{t('studio.library.references')}</h3>
                  <div className="ref-thumbs">
                    {detail.references.map((r) => (
                      <figure key={`${r.role}-${r.id}`} className="ref-thumb">
                        {r.posterUrl ? <img className="thumb" src={r.posterUrl} alt="" /> : null}
                        <figcaption className="small" data-testid="detail-reference">
                          {t(`studio.create.role.${r.role}`, { defaultValue: r.role })}: {r.fileName}
                          {r.trim
                            ? ` · ${t('studio.library.keptRange', { start: r.trim.startSeconds, end: r.trim.endSeconds })}`
                            : null}
                        </figcaption>
                      </figure>
                    ))}
                  </div>
                </div>
              ) : null}
              <div className="row">
                {markedExport ? (
                  MARKED_EXPORT_TYPES.has(output.mimeType ?? '') ? (
                    <button
                      type="button"
                      className="button"
                      data-testid="detail-export"
                      disabled={exportRunning}
                      onClick={() => void exportMarked(jobRowId)}
                    >
                      {exportRunning ? t('studio.library.exporting') : t('studio.library.exportMarked')}
                    </button>
                  ) : null
                ) : (
                  <button
                    type="button"
                    className="button"
                    data-testid="detail-reveal"
                    onClick={() =>
                      void revealInLibrary(jobRowId).then(
                        (folder) => setRevealed(folder),
                        (e: unknown) => setRevealed(String(e)),
                      )
                    }
                  >
                    {t('studio.library.reveal')}
                  </button>
                )}
                {detail.serviceKind === 'document_parse' ? null : (
                  <button
                    type="button"
                    className="button"
                    data-testid="detail-copy"
                    onClick={() => {
                      onClose();
                      void copyToCreate(jobRowId);
                    }}
                  >
                    {t('studio.library.copyToCreate')}
                  </button>
                )}
                {confirming ? (
                  <button
                    type="button"
                    className="button button-danger"
                    data-testid="detail-delete-confirm"
                    onClick={() =>
                      void deleteFromLibrary(jobRowId).then(
                        () => {
                          onClose();
                          onDeleted();
                        },
                        (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
                      )
                    }
                  >
                    {t('studio.library.deleteConfirm')}
                  </button>
                ) : (
                  <button
                    type="button"
                    className="button"
                    data-testid="detail-delete"
                    onClick={() => setConfirming(true)}
                  >
                    {t('studio.library.delete')}
                  </button>
                )}
                <Dialog.Close className="button button-secondary">{t('studio.library.close')}</Dialog.Close>
              </div>
              {exportError ? (
                <p role="alert" className="error-banner" data-testid="detail-export-error">
                  {exportError}
                </p>
              ) : null}
              {revealed ? (
                <p className="muted small" data-testid="detail-folder">
                  {t('studio.library.revealed', { folder: revealed })}
                </p>
              ) : null}
            </div>
          ) : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Verified results, offline: gallery, filters, prompt search, detail, comparison. */
export function LibraryScreen() {
  const { t } = useTranslation();
  const profiles = useStudio((s) => s.profiles);
  const [filters, setFilters] = useState<Filters>(EMPTY);
  const items = useStudio((s) => s.libraryItems);
  const error = useStudio((s) => s.libraryError);
  const models = useStudio((s) => s.libraryModels);
  const modes = useStudio((s) => s.libraryModes);
  const searchLibrary = useStudio((s) => s.searchLibrary);
  const markResult = useStudio((s) => s.markResult);
  const resetLibrary = useStudio((s) => s.resetLibrary);
  const [open, setOpen] = useState<number | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [comparing, setComparing] = useState(false);
  /** Only this variation group is shown ("Show its group"), so any two of it can be selected. */
  const [group, setGroup] = useState<string | null>(null);
  const [refresh, setRefresh] = useState(0);
  const version = useStudio(
    (s) => s.jobOrder.length + Object.values(s.jobs).filter((j) => j.status === 'succeeded').length,
  );
  const activeCollectionId = useReview((s) => s.activeCollectionId);
  const collection = useReview((s) => s.collections?.find((c) => c.id === s.activeCollectionId) ?? null);
  const collectionSize = collection?.jobRowIds.length ?? 0;
  const selection = useReview((s) => s.selection);
  const toggleSelected = useReview((s) => s.toggleSelected);
  const selectAll = useReview((s) => s.selectAll);
  const clearSelection = useReview((s) => s.clearSelection);
  const loadCollections = useReview((s) => s.loadCollections);
  const moveInCollection = useReview((s) => s.moveInCollection);
  const reorderCollection = useReview((s) => s.reorderCollection);
  const removeFromCollection = useReview((s) => s.removeFromCollection);
  const reviewing = useReview((s) => s.reviewer !== null);
  const openReviewer = useReview((s) => s.openReviewer);
  const dragged = useRef<number | null>(null);

  useEffect(() => {
    void loadCollections();
  }, [loadCollections]);
  // leaving the Library forgets its selection
  useEffect(() => clearSelection, [clearSelection]);

  useEffect(() => {
    const timer = setTimeout(() => {
      const day = (d: string, end: boolean) =>
        d ? Date.parse(`${d}T${end ? '23:59:59' : '00:00:00'}`) : undefined;
      void searchLibrary({
        ...(filters.query.trim() ? { query: filters.query } : {}),
        ...(filters.profileId ? { profileId: filters.profileId } : {}),
        ...(filters.model ? { model: filters.model } : {}),
        ...(filters.mode ? { mode: filters.mode } : {}),
        ...(filters.from ? { from: day(filters.from, false) } : {}),
        ...(filters.to ? { to: day(filters.to, true) } : {}),
        ...(filters.flag ? { flag: filters.flag as MarkFlagFilter } : {}),
        ...(filters.minStars ? { minStars: Number(filters.minStars) } : {}),
        ...(activeCollectionId ? { collectionId: activeCollectionId } : {}),
        ...(filters.sort === 'rating' ? { sort: 'rating' as const } : {}),
      });
    }, 200);
    return () => clearTimeout(timer);
    // a collection's size changing (an item added or removed) searches again; its order is applied below
  }, [filters, version, refresh, searchLibrary, activeCollectionId, collectionSize]);
  // leaving the Library forgets its search: it opens on a fresh one
  useEffect(() => resetLibrary, [resetLibrary]);

  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch }));
  const toggle = (rowId: number) =>
    setSelected((s) => (s.includes(rowId) ? s.filter((x) => x !== rowId) : [...s.slice(-1), rowId]));
  const pair = selected.map((id) => items?.find((j) => j.rowId === id)).filter((j): j is JobView => !!j);
  const grouped = group === null ? items : (items ?? []).filter((j) => j.variation?.groupId === group);
  // a collection's results in its order as it stands now (a move shows before the next search)
  const inOrder =
    collection && grouped
      ? collection.jobRowIds
          .map((id) => grouped.find((j) => j.rowId === id))
          .filter((j): j is JobView => j !== undefined)
      : grouped;
  // by rating, a mark made here moves its card at once (as the next search would)
  const shown = inOrder && filters.sort === 'rating' ? byRating(inOrder) : inOrder;
  const shownIds = (shown ?? []).map((j) => j.rowId);
  const groupHead = group === null ? undefined : shown?.find((j) => j.variation);

  const select = (name: keyof Filters, label: string, options: { value: string; label: string }[]) => (
    <label className="filter">
      <span className="field-label">{label}</span>
      <select
        className="input"
        data-testid={`filter-${name}`}
        value={filters[name]}
        onChange={(e) => set({ [name]: e.target.value })}
      >
        <option value="">{t('studio.library.any')}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <section className="screen library-screen" aria-labelledby="library-title">
      <h1 id="library-title">{t('library.title')}</h1>
      <div className="filters panel">
        <label className="filter filter-search">
          <span className="field-label">{t('studio.library.search')}</span>
          <input
            type="search"
            className="input"
            data-testid="library-search"
            value={filters.query}
            onChange={(e) => set({ query: e.target.value })}
          />
        </label>
        {select(
          'profileId',
          t('studio.library.profile'),
          profiles.map((p) => ({ value: p.id, label: p.name })),
        )}
        {select(
          'model',
          t('studio.library.model'),
          models.map((m) => ({ value: m, label: m })),
        )}
        {select(
          'mode',
          t('studio.library.mode'),
          modes.map((m) => ({ value: m, label: t(`modeName.${m}`, { defaultValue: m }) })),
        )}
        {select(
          'flag',
          t('studio.library.flagFilter'),
          MARK_FLAG_FILTERS.map((f) => ({ value: f, label: t(`studio.library.flagFilters.${f}`) })),
        )}
        {select(
          'minStars',
          t('studio.library.starsFilter'),
          Array.from({ length: MAX_STARS }, (_, i) => ({
            value: String(i + 1),
            label: t('studio.library.atLeastStars', { count: i + 1 }),
          })),
        )}
        <label className="filter">
          <span className="field-label">{t('studio.library.sort')}</span>
          <select
            className="input"
            data-testid="filter-sort"
            value={filters.sort}
            onChange={(e) => set({ sort: e.target.value })}
          >
            <option value="">{t('studio.library.sortNewest')}</option>
            <option value="rating">{t('studio.library.sortRating')}</option>
          </select>
        </label>
        <CollectionPicker />
        <fieldset className="filter filter-dates" data-testid="filter-dates">
          <legend className="field-label">{t('studio.library.dates')}</legend>
          <div className="filter-dates-row">
            {(['from', 'to'] as const).map((end) => (
              <label className="filter-date" key={end}>
                <span>{t(`studio.library.${end}`)}</span>
                <input
                  type="date"
                  className="input"
                  data-testid={`filter-${end}`}
                  value={filters[end]}
                  onChange={(e) => set({ [end]: e.target.value })}
                />
              </label>
            ))}
          </div>
        </fieldset>
      </div>
      <CollectionTools />
      {shown && shown.length > 0 ? (
        <div className="row library-review-row">
          <button
            type="button"
            className="button button-primary"
            data-testid="library-review"
            onClick={() => openReviewer(shownIds)}
          >
            {collection
              ? t('review.library.reviewCollection', { count: shown.length })
              : t('review.library.review', { count: shown.length })}
          </button>
          <span className="muted small">{t('review.library.keysHint')}</span>
        </div>
      ) : null}
      {items && items.length > 0 ? (
        <p className="muted small" data-testid="library-mark-counts">
          {t('studio.library.markCounts', {
            shown: items.length,
            picks: items.filter((j) => j.marks.flag === 'pick').length,
            rejects: items.filter((j) => j.marks.flag === 'reject').length,
            rated: items.filter((j) => j.marks.stars > 0).length,
          })}
        </p>
      ) : null}
      {error ? <p role="alert">{t('errors.generic', { message: error })}</p> : null}
      {group !== null ? (
        <p className="row" role="status" data-testid="library-group-filter">
          {groupHead?.variation ? (
            <span>
              {t('studio.library.groupFilter', {
                prompt: groupHead.prompt,
                count: groupHead.variation.count,
              })}
            </span>
          ) : null}
          <button
            type="button"
            className="button button-small"
            data-testid="library-group-clear"
            onClick={() => setGroup(null)}
          >
            {t('studio.library.showAll')}
          </button>
        </p>
      ) : null}
      {items && items.length === 0 ? (
        filters === EMPTY ? (
          <EmptyState title={t('library.emptyTitle')} body={t('library.emptyBody')} />
        ) : (
          <p className="muted">{t('studio.library.empty')}</p>
        )
      ) : null}
      <SelectionBar shown={shownIds} />
      <ul
        className="gallery"
        data-testid="library-gallery"
        aria-label={t('review.library.gallery')}
        onKeyDown={(e) => {
          if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'a') {
            e.preventDefault();
            selectAll(shownIds);
          }
        }}
      >
        {(shown ?? []).map((job, index) => (
          <LibraryCard
            key={job.rowId}
            job={job}
            selected={selected.includes(job.rowId)}
            onOpen={() => setOpen(job.rowId)}
            onToggleCompare={() => toggle(job.rowId)}
            onMark={(change) => void markResult({ jobRowId: job.rowId, ...change })}
            checked={selection.includes(job.rowId)}
            onCheck={(range) => toggleSelected(job.rowId, shownIds, range)}
            onReview={() => openReviewer(shownIds, job.rowId)}
            {...(collection
              ? {
                  inCollection: {
                    position: index,
                    count: shownIds.length,
                    onMove: (delta: number) => void moveInCollection(collection.id, job.rowId, delta),
                    onRemove: () => void removeFromCollection(collection.id, [job.rowId]),
                    dragProps: {
                      draggable: true,
                      onDragStart: (e) => {
                        dragged.current = job.rowId;
                        e.dataTransfer.effectAllowed = 'move';
                      },
                      onDragOver: (e) => {
                        if (dragged.current !== null) e.preventDefault();
                      },
                      onDrop: (e) => {
                        e.preventDefault();
                        const from = dragged.current;
                        dragged.current = null;
                        if (from === null || from === job.rowId) return;
                        const to = collection.jobRowIds.indexOf(job.rowId);
                        void reorderCollection(collection.id, moveTo(collection.jobRowIds, from, to));
                      },
                      onDragEnd: () => (dragged.current = null),
                    },
                  },
                }
              : {})}
            {...(group === null && job.variation
              ? { onShowGroup: () => setGroup(job.variation!.groupId) }
              : {})}
          />
        ))}
      </ul>
      <LibraryFilms />
      {pair.length > 0 ? (
        <div className="compare-bar panel" data-testid="compare-bar">
          <span role="status" data-testid="compare-count">
            {pair.length === 2
              ? t('studio.library.compareCount', { count: pair.length })
              : t('studio.library.compareOneMore')}
          </span>
          <button
            type="button"
            className="button button-primary"
            data-testid="compare-selected"
            disabled={pair.length !== 2}
            onClick={() => setComparing(true)}
          >
            {t('studio.library.compare')}
          </button>
          <button
            type="button"
            className="button"
            data-testid="compare-clear"
            onClick={() => setSelected([])}
          >
            {t('studio.library.clearSelection')}
          </button>
        </div>
      ) : null}
      {open !== null ? (
        <Detail
          jobRowId={open}
          onClose={() => setOpen(null)}
          onDeleted={() => {
            setSelected((s) => s.filter((id) => id !== open));
            if (useReview.getState().selection.includes(open)) toggleSelected(open, shownIds);
            setRefresh((n) => n + 1);
          }}
        />
      ) : null}
      {reviewing ? (
        <Suspense fallback={<p className="muted small">{t('review.library.loading')}</p>}>
          <Reviewer items={shown ?? []} />
        </Suspense>
      ) : null}
      {comparing && pair.length === 2 ? (
        <CompareDialog a={pair[0]!} b={pair[1]!} onClose={() => setComparing(false)} />
      ) : null}
    </section>
  );
}
