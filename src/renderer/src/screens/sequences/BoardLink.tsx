import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { SequenceShotView } from '../../../../shared/bridge/contract';
import { sendKey, type BoardSend } from '../../store/storyboards-slice';
import { useStudio } from '../../store';
import { hasVerifiedResult } from './sequence-model';
import './storyboards-i18n';

/** The open sequence's board link, once answered for it (null: not imported, or not offered). */
function useOpenBoardLink() {
  const sequenceId = useStudio((s) => s.openSequenceId);
  const boardLink = useStudio((s) => s.boardLink);
  return sequenceId && boardLink?.sequenceId === sequenceId ? boardLink.link : null;
}

/** A send's state in words: sending, sent (or replayed: already there), or the core's sentence. */
function SendState({ send, testId }: { send: BoardSend | undefined; testId: string }) {
  const { t } = useTranslation();
  if (!send) return null;
  if (send.state === 'failed')
    return (
      <p role="alert" className="error-text small" data-testid={testId} data-state="failed">
        {t('storyboards.sendFailed', { message: send.error })}
      </p>
    );
  if (send.state === 'sending')
    return (
      <p role="status" className="muted small" data-testid={testId} data-state="sending">
        {t('storyboards.sending')}
      </p>
    );
  const { replayed, panelId, writeId } = send.result;
  return (
    <p
      role="status"
      className="ok-text small"
      data-testid={testId}
      data-state={replayed ? 'replayed' : 'sent'}
      data-panel-id={panelId}
      data-write-id={writeId}
    >
      {t(replayed ? 'storyboards.replayed' : 'storyboards.sent', { panel: panelId })}
    </p>
  );
}

/**
 * Where the open sequence came from ("From board …") and, once its assembly is ready, "Send to the
 * board". Shown only where the backend offers storyboards and the sequence was imported.
 */
export function BoardLinkBar() {
  const { t } = useTranslation();
  const offered = useStudio((s) => s.info?.capabilities.storyboards === true);
  const sequence = useStudio((s) => s.sequence);
  const sequenceId = useStudio((s) => s.openSequenceId);
  const loadBoardLink = useStudio((s) => s.loadBoardLink);
  const sendToBoard = useStudio((s) => s.sendToBoard);
  const send = useStudio((s) => (sequenceId ? s.boardSends[sendKey(sequenceId)] : undefined));
  const link = useOpenBoardLink();

  useEffect(() => {
    if (offered && sequenceId) void loadBoardLink(sequenceId);
  }, [offered, sequenceId, loadBoardLink]);

  if (!offered || !link || !sequence) return null;
  const ready = sequence.assembly?.state === 'ready';
  return (
    <section className="panel board-link" aria-labelledby="board-link-title" data-testid="board-link">
      <h3 id="board-link-title" className="board-link-title" data-testid="board-link-title">
        {t('storyboards.fromBoard', { title: link.title })}
      </h3>
      <div className="row">
        <button
          type="button"
          className="button button-primary"
          data-testid="board-send-film"
          disabled={!ready || send?.state === 'sending'}
          title={ready ? t('storyboards.sendFilmHint') : t('storyboards.needsAssembly')}
          onClick={() => void sendToBoard()}
        >
          {t('storyboards.sendFilm')}
        </button>
        {!ready ? <span className="muted small">{t('storyboards.needsAssembly')}</span> : null}
        {ready && !sequence.assemblyCurrent ? (
          <span className="notice small">{t('storyboards.notCurrent')}</span>
        ) : null}
      </div>
      <SendState send={send} testId="board-send-film-state" />
    </section>
  );
}

/** "Send shot to its panel": for a shot made from a panel, once it has a verified result. */
export function ShotBoardSend({ shot, index }: { shot: SequenceShotView; index: number }) {
  const { t } = useTranslation();
  const offered = useStudio((s) => s.info?.capabilities.storyboards === true);
  const sequenceId = useStudio((s) => s.openSequenceId);
  const sendToBoard = useStudio((s) => s.sendToBoard);
  const send = useStudio((s) => (sequenceId ? s.boardSends[sendKey(sequenceId, shot.shotId)] : undefined));
  const link = useOpenBoardLink();
  if (!offered || !link?.panels[shot.shotId] || !hasVerifiedResult(shot)) return null;
  return (
    <div className="shot-board-send">
      <button
        type="button"
        className="button button-small"
        data-testid={`sequence-shot-send-${index}`}
        aria-label={`${t('storyboards.sendShot')}: ${shot.label}`}
        disabled={send?.state === 'sending'}
        onClick={() => void sendToBoard(shot.shotId)}
      >
        {t('storyboards.sendShot')}
      </button>
      <SendState send={send} testId={`sequence-shot-send-state-${index}`} />
    </div>
  );
}
