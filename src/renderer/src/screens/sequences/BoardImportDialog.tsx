import { Dialog } from 'radix-ui';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudio } from '../../store';
import './storyboards-i18n';

/** A board's last change as the person reads it (the text as given when it is not a date). */
function updatedText(updatedAt: string, language: string): string {
  const at = new Date(updatedAt);
  if (Number.isNaN(at.getTime())) return updatedAt;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
}

/**
 * The person's boards in Storyboard Helper: title, panel count, last change. Import makes a
 * sequence of one (which then opens); a board imported before opens its sequence instead.
 */
export function BoardImportDialog({ onClose }: { onClose(): void }) {
  const { t, i18n } = useTranslation();
  const boards = useStudio((s) => s.boards);
  const loading = useStudio((s) => s.boardsLoading);
  const error = useStudio((s) => s.boardsError);
  const importing = useStudio((s) => s.importingBoardId);
  const loadBoards = useStudio((s) => s.loadBoards);
  const importBoard = useStudio((s) => s.importBoard);
  const openSequence = useStudio((s) => s.openSequence);

  useEffect(() => {
    void loadBoards();
  }, [loadBoards]);

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog-content" data-testid="board-import-dialog">
          <Dialog.Title>{t('storyboards.dialogTitle')}</Dialog.Title>
          <Dialog.Description className="muted small">{t('storyboards.dialogBody')}</Dialog.Description>
          {error ? (
            <p role="alert" className="error-banner" data-testid="board-import-error">
              {error}
            </p>
          ) : null}
          {loading && !boards ? <p className="muted">{t('storyboards.loading')}</p> : null}
          {boards && boards.length === 0 ? (
            <p className="muted" data-testid="board-none">
              {t('storyboards.none')}
            </p>
          ) : null}
          {boards && boards.length > 0 ? (
            <table className="spec-table board-table" data-testid="board-list">
              <thead>
                <tr>
                  <th scope="col">{t('storyboards.board')}</th>
                  <th scope="col">{t('storyboards.panels')}</th>
                  <th scope="col">{t('storyboards.updated')}</th>
                  <th scope="col">{t('storyboards.actions')}</th>
                </tr>
              </thead>
              <tbody>
                {boards.map((b) => (
                  <tr key={b.boardId} data-testid="board-item" data-board-id={b.boardId}>
                    <td data-testid="board-title">{b.title}</td>
                    <td data-testid="board-panels" data-count={b.panelCount}>
                      {t('storyboards.panelCount', { count: b.panelCount })}
                    </td>
                    <td>
                      <time dateTime={b.updatedAt}>{updatedText(b.updatedAt, i18n.language)}</time>
                    </td>
                    <td>
                      {b.importedSequenceId ? (
                        <>
                          <span className="badge small" data-testid="board-imported">
                            {t('storyboards.imported')}
                          </span>{' '}
                          <button
                            type="button"
                            className="button button-small"
                            data-testid="board-open-imported"
                            aria-label={`${t('storyboards.openImported')}: ${b.title}`}
                            onClick={() => {
                              const sequenceId = b.importedSequenceId;
                              onClose();
                              if (sequenceId) void openSequence(sequenceId);
                            }}
                          >
                            {t('storyboards.openImported')}
                          </button>
                        </>
                      ) : (
                        <button
                          type="button"
                          className="button button-small button-primary"
                          data-testid="board-import"
                          aria-label={`${t('storyboards.import')}: ${b.title}`}
                          disabled={importing !== null}
                          onClick={() => void importBoard(b.boardId).then((done) => done && onClose())}
                        >
                          {importing === b.boardId ? t('storyboards.importing') : t('storyboards.import')}
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
          <div className="row">
            <Dialog.Close className="button button-secondary" data-testid="board-import-close">
              {t('storyboards.close')}
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
