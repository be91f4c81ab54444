import { useRef } from 'react';
import type { OutputView } from '../../../../../shared/bridge/contract';
import { useReview } from '../../../store/review-store';
import { NotesPanel, useTakeNotes } from './NotesPanel';
import { ReviewPlayer, kindOf } from './ReviewPlayer';
import { frameStart } from './reviewer-keys';
import { useReviewPlayer } from './use-review-player';

/**
 * A result's player in its detail, with its notes beside it: markers on the scrub bar, the list
 * (a time jumps to its frame), a note added at the frame shown, a rectangle dragged on the paused
 * frame.
 */
export function TakeWithNotes({
  jobRowId,
  output,
  fps,
  testId,
}: {
  jobRowId: number;
  output: OutputView & { mediaUrl: string };
  fps: number;
  testId: string;
}) {
  const playback = useReviewPlayer(fps);
  const notes = useTakeNotes(jobRowId);
  const draft = useReview((s) => (s.noteDraft?.jobRowId === jobRowId ? s.noteDraft : null));
  const startNote = useReview((s) => s.startNote);
  const setDraftRect = useReview((s) => s.setDraftRect);
  const input = useRef<HTMLTextAreaElement | null>(null);
  const kind = kindOf(output.mimeType);
  return (
    <div className="take-with-notes">
      <ReviewPlayer
        url={output.mediaUrl}
        mimeType={output.mimeType}
        playback={playback}
        notes={notes}
        draft={draft}
        testId={testId}
        onDrawRect={(rect) => {
          if (draft) setDraftRect(rect);
          else startNote(jobRowId, kind === 'image' ? 0 : frameStart(playback), rect);
          requestAnimationFrame(() => input.current?.focus());
        }}
      />
      <NotesPanel
        jobRowId={jobRowId}
        notes={notes}
        playback={playback}
        inputRef={input}
        timed={kind !== 'image'}
        drawable={kind !== 'audio'}
      />
    </div>
  );
}
