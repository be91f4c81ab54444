import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CollectionView } from '../../../../../shared/bridge/contract';
import { useStudio } from '../../../store';
import { inShownOrder, sharingOffered, useReview } from '../../../store/review-store';
import { NameDialog } from './NameDialog';

/** The collection filter of the Library: every collection by name and size, or none. */
export function CollectionPicker() {
  const { t } = useTranslation();
  const collections = useReview((s) => s.collections);
  const active = useReview((s) => s.activeCollectionId);
  const setActive = useReview((s) => s.setActiveCollection);
  return (
    <label className="filter">
      <span className="field-label">{t('review.collections.filter')}</span>
      <select
        className="input"
        data-testid="filter-collection"
        value={active ?? ''}
        onChange={(e) => setActive(e.target.value || null)}
      >
        <option value="">{t('review.collections.all')}</option>
        {(collections ?? []).map((c) => (
          <option key={c.id} value={c.id}>
            {t('review.collections.option', { name: c.name, count: c.jobRowIds.length })}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * What can be done with the selected results: a new collection of them (in the order shown),
 * adding them to a collection, clearing the selection.
 */
export function SelectionBar({ shown }: { shown: readonly number[] }) {
  const { t } = useTranslation();
  const selection = useReview((s) => s.selection);
  const collections = useReview((s) => s.collections);
  const error = useReview((s) => s.collectionsError);
  const busy = useReview((s) => s.collectionBusy);
  const createCollection = useReview((s) => s.createCollection);
  const addToCollection = useReview((s) => s.addToCollection);
  const clearSelection = useReview((s) => s.clearSelection);
  const setActive = useReview((s) => s.setActiveCollection);
  const [naming, setNaming] = useState(false);
  const [target, setTarget] = useState('');
  const [added, setAdded] = useState<string | null>(null);
  const ids = inShownOrder(selection, shown);
  if (selection.length === 0) return null;
  const targetName = collections?.find((c) => c.id === target)?.name;
  return (
    <div
      className="selection-bar panel"
      role="region"
      aria-label={t('review.selection.region')}
      data-testid="selection-bar"
    >
      <span role="status" data-testid="selection-count">
        {t('review.selection.count', { count: ids.length })}
      </span>
      <button
        type="button"
        className="button button-primary"
        data-testid="selection-new-collection"
        disabled={ids.length === 0}
        onClick={() => setNaming(true)}
      >
        {t('review.selection.newCollection')}
      </button>
      {collections && collections.length > 0 ? (
        <span className="row">
          <label className="sr-only" htmlFor="selection-target">
            {t('review.selection.target')}
          </label>
          <select
            id="selection-target"
            className="input"
            data-testid="selection-target"
            value={target}
            onChange={(e) => setTarget(e.target.value)}
          >
            <option value="">{t('review.selection.chooseCollection')}</option>
            {collections.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button"
            data-testid="selection-add"
            disabled={!target || ids.length === 0 || busy !== null}
            onClick={() =>
              void addToCollection(target, ids).then((ok) => setAdded(ok ? (targetName ?? '') : null))
            }
          >
            {t('review.selection.add')}
          </button>
        </span>
      ) : null}
      <button
        type="button"
        className="button button-secondary"
        data-testid="selection-clear"
        onClick={clearSelection}
      >
        {t('review.selection.clear')}
      </button>
      {added !== null ? (
        <span className="small ok-text" role="status" data-testid="selection-added">
          {t('review.selection.added', { count: ids.length, name: added })}
        </span>
      ) : null}
      {error && !naming ? (
        <p role="alert" className="error-banner small">
          {t('errors.generic', { message: error })}
        </p>
      ) : null}
      {naming ? (
        <NameDialog
          title={t('review.selection.newCollectionTitle', { count: ids.length })}
          submitLabel={t('review.collections.create')}
          error={error}
          onClose={() => setNaming(false)}
          onSubmit={async (name) => {
            const made = await createCollection(name, ids);
            if (!made) return false;
            clearSelection();
            setActive(made.id);
            return true;
          }}
        />
      ) : null}
    </div>
  );
}

function ShareControl({ collection }: { collection: CollectionView }) {
  const { t } = useTranslation();
  const projects = useReview((s) => s.shareProjects);
  const loadShareProjects = useReview((s) => s.loadShareProjects);
  const shareCollection = useReview((s) => s.shareCollection);
  const busy = useReview((s) => s.collectionBusy);
  useEffect(() => {
    if (projects === null) void loadShareProjects();
  }, [projects, loadShareProjects]);
  return (
    <label className="row small">
      <span>{t('review.collections.share')}</span>
      <select
        className="input"
        data-testid="collection-share"
        value={collection.sharedProjectId ?? ''}
        disabled={busy !== null || projects === null}
        onChange={(e) => void shareCollection(collection.id, e.target.value || null)}
      >
        <option value="">{t('review.collections.notShared')}</option>
        {(projects ?? []).map((p) => (
          <option key={p.id} value={p.id}>
            {p.name}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The collection the Library shows: its name and size, and rename, delete, "Make a sequence",
 * "Export review package" and (where the backend declares `sharedCollections`) sharing with a
 * project — each only where the backend offers it.
 */
export function CollectionTools() {
  const { t } = useTranslation();
  const active = useReview((s) => s.activeCollectionId);
  const collection = useReview((s) => s.collections?.find((c) => c.id === active) ?? null);
  const error = useReview((s) => s.collectionsError);
  const busy = useReview((s) => s.collectionBusy);
  const madeSequence = useReview((s) => s.madeSequence);
  const exported = useReview((s) => s.exported);
  const renameCollection = useReview((s) => s.renameCollection);
  const deleteCollection = useReview((s) => s.deleteCollection);
  const makeSequence = useReview((s) => s.makeSequence);
  const exportPackage = useReview((s) => s.exportPackage);
  const revealPackage = useReview((s) => s.revealPackage);
  const capabilities = useStudio((s) => s.info?.capabilities);
  const canShare = useStudio((s) => sharingOffered(s.info));
  const openSequence = useStudio((s) => s.openSequence);
  const setSection = useStudio((s) => s.setSection);
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [copied, setCopied] = useState(false);
  if (!collection) return null;
  const empty = collection.jobRowIds.length === 0;
  return (
    <section
      className="collection-tools panel"
      aria-labelledby="collection-tools-title"
      data-testid="collection-tools"
    >
      <h2 id="collection-tools-title" className="collection-name">
        {t('review.collections.heading', { name: collection.name, count: collection.jobRowIds.length })}
      </h2>
      <p className="muted small">{t('review.collections.orderHint')}</p>
      <div className="row">
        <button
          type="button"
          className="button button-secondary"
          data-testid="collection-rename"
          onClick={() => setRenaming(true)}
        >
          {t('review.collections.rename')}
        </button>
        {capabilities?.sequences ? (
          <button
            type="button"
            className="button"
            data-testid="collection-to-sequence"
            disabled={empty || busy !== null}
            onClick={() => void makeSequence(collection.id)}
          >
            {busy === 'sequence' ? t('review.collections.making') : t('review.collections.toSequence')}
          </button>
        ) : null}
        <button
          type="button"
          className="button"
          data-testid="collection-export"
          disabled={empty || busy !== null}
          onClick={() => void exportPackage(collection.id)}
        >
          {busy === 'export' ? t('review.collections.exporting') : t('review.collections.export')}
        </button>
        {canShare ? <ShareControl collection={collection} /> : null}
        {confirming ? (
          <>
            <button
              type="button"
              className="button button-danger"
              data-testid="collection-delete-confirm"
              disabled={busy !== null}
              onClick={() => void deleteCollection(collection.id).then(() => setConfirming(false))}
            >
              {t('review.collections.deleteConfirm', { name: collection.name })}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setConfirming(false)}>
              {t('review.collections.cancel')}
            </button>
          </>
        ) : (
          <button
            type="button"
            className="button button-secondary"
            data-testid="collection-delete"
            onClick={() => setConfirming(true)}
          >
            {t('review.collections.delete')}
          </button>
        )}
      </div>
      {madeSequence?.collectionId === collection.id ? (
        <p className="row" role="status" data-testid="collection-sequence-made">
          <span>
            {t('review.collections.sequenceMade', { shots: madeSequence.shots })}
            {madeSequence.skipped > 0
              ? ` ${t('review.collections.skipped', { count: madeSequence.skipped })}`
              : ''}
          </span>
          <button
            type="button"
            className="button button-small"
            data-testid="collection-open-sequence"
            onClick={() => {
              setSection('sequences');
              void openSequence(madeSequence.sequenceId);
            }}
          >
            {t('review.collections.openSequence')}
          </button>
        </p>
      ) : null}
      {exported?.collectionId === collection.id ? (
        <div className="row" role="status" data-testid="collection-exported">
          <span>{t('review.collections.exported', { count: exported.takes, file: exported.fileName })}</span>
          {exported.folder && capabilities?.localFolders ? (
            <>
              <code className="small" data-testid="collection-export-folder">
                {exported.folder}
              </code>
              <button
                type="button"
                className="button button-small button-secondary"
                data-testid="collection-export-copy"
                onClick={() =>
                  void navigator.clipboard?.writeText(exported.folder!).then(
                    () => setCopied(true),
                    () => setCopied(false),
                  )
                }
              >
                {copied ? t('review.collections.copied') : t('review.collections.copyFolder')}
              </button>
              <button
                type="button"
                className="button button-small button-secondary"
                data-testid="collection-export-reveal"
                onClick={() => void revealPackage(exported.fileName)}
              >
                {t('studio.library.reveal')}
              </button>
            </>
          ) : null}
          {exported.downloadPath ? (
            <a
              className="button button-small"
              href={exported.downloadPath}
              download={exported.fileName}
              data-testid="collection-export-download"
            >
              {t('review.collections.download', { file: exported.fileName })}
            </a>
          ) : null}
        </div>
      ) : null}
      {error && !renaming ? (
        <p role="alert" className="error-banner small" data-testid="collection-error">
          {t('errors.generic', { message: error })}
        </p>
      ) : null}
      {renaming ? (
        <NameDialog
          title={t('review.collections.renameTitle', { name: collection.name })}
          submitLabel={t('review.collections.rename')}
          initial={collection.name}
          error={error}
          onClose={() => setRenaming(false)}
          onSubmit={(name) => renameCollection(collection.id, name)}
        />
      ) : null}
    </section>
  );
}
