import { useEffect } from 'react';
import i18next from 'i18next';
import { isTerminalJobStatus } from '../../../shared/bridge/names';
import { bridge } from '../bridge';
import { useStudio } from '../store';

/** Live queue: jobs, downloads and uploads pushed by the core; a desktop notice when a job ends unseen. */
export function useStudioEvents(): void {
  useEffect(() => {
    const { receiveJob, receiveDownload, receiveUpload } = useStudio.getState();
    const offJobs = bridge.on('jobs.changed', (job) => {
      const before = useStudio.getState().jobs[job.rowId];
      receiveJob(job);
      const finished =
        isTerminalJobStatus(job.status) &&
        (!before ||
          !isTerminalJobStatus(before.status) ||
          (job.status === 'succeeded' &&
            job.outputs.some((o) => o.verified) &&
            !before.outputs.some((o) => o.verified)));
      if (
        finished &&
        document.visibilityState === 'hidden' &&
        typeof Notification !== 'undefined' &&
        Notification.permission === 'granted'
      ) {
        const status = i18next.t(`studio.queue.status.${job.status}`);
        new Notification(i18next.t('studio.queue.notifyTitle', { status }), {
          body: job.prompt.slice(0, 140),
        });
      }
    });
    const offDownloads = bridge.on('downloads.progress', (p) =>
      receiveDownload(p.outputId, { receivedBytes: p.receivedBytes, totalBytes: p.totalBytes }),
    );
    const offUploads = bridge.on('uploads.progress', (p) =>
      receiveUpload(p.draftId, p.fileName, {
        state: p.state,
        sentBytes: p.sentBytes,
        totalBytes: p.totalBytes,
      }),
    );
    return () => {
      offJobs();
      offDownloads();
      offUploads();
    };
  }, []);
}
