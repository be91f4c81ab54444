import type { JobView } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import { useStudio } from './index';
import { isTerminalJobStatus } from '../../../shared/bridge/names';

/** Did this change end the job (or bring its verified result), as against the job known before? */
function justFinished(job: JobView, before: JobView | undefined): boolean {
  return (
    isTerminalJobStatus(job.status) &&
    (!before ||
      !isTerminalJobStatus(before.status) ||
      (job.status === 'succeeded' &&
        job.outputs.some((o) => o.verified) &&
        !before.outputs.some((o) => o.verified)))
  );
}

/**
 * Feeds what the core pushes into the store: the connection, settings, jobs, downloads, uploads,
 * the chat's streamed reply, and the sequences' changes and assembly progress; after a drop of the
 * events channel, re-reads what they feed. `onJobFinished` hears of each job that just ended. Answers the
 * function that stops listening.
 */
export function listenToCore(onJobFinished: (job: JobView) => void): () => void {
  const store = useStudio.getState();
  const stops = [
    bridge.on('connection.changed', store.receiveConnection),
    bridge.on('settings.changed', store.receiveSettings),
    bridge.on('jobs.changed', (job) => {
      const before = useStudio.getState().jobs[job.rowId];
      store.receiveJob(job);
      store.receiveSequenceJob(job);
      if (justFinished(job, before)) onJobFinished(job);
    }),
    bridge.on('downloads.progress', (p) =>
      store.receiveDownload(p.outputId, { receivedBytes: p.receivedBytes, totalBytes: p.totalBytes }),
    ),
    bridge.on('uploads.progress', (p) =>
      store.receiveUpload(p.draftId, p.fileName, {
        state: p.state,
        sentBytes: p.sentBytes,
        totalBytes: p.totalBytes,
      }),
    ),
    bridge.on('playground.chat.delta', ({ streamId, token }) => store.receiveDelta(streamId, token)),
    bridge.on('sequences.changed', ({ sequenceId }) => store.receiveSequenceChanged(sequenceId)),
    bridge.on('sequences.assembly', store.receiveAssembly),
    // the events channel came back after a drop (a backend restarting behind its drain): what was
    // pushed meanwhile is lost, so the jobs, the connection and the sequences are read again
    bridge.onMissedEvents(() => {
      const now = useStudio.getState();
      // each keeps what it shows when its read fails (the channel may drop again)
      void now.loadApp();
      void now.loadJobs().catch(() => undefined);
      void now.loadSequences();
      if (now.openSequenceId) void now.refreshSequence();
    }),
  ];
  return () => stops.forEach((stop) => stop());
}
