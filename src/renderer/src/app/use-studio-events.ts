import { useEffect } from 'react';
import i18next from 'i18next';
import { listenToCore } from '../store/core-events';

/** Live state pushed by the core, for as long as the shell is shown; a desktop notice when a job ends unseen. */
export function useStudioEvents(): void {
  useEffect(
    () =>
      listenToCore((job) => {
        if (
          document.visibilityState === 'hidden' &&
          typeof Notification !== 'undefined' &&
          Notification.permission === 'granted'
        ) {
          const status = i18next.t(`studio.queue.status.${job.status}`);
          new Notification(i18next.t('studio.queue.notifyTitle', { status }), {
            body: (job.title || job.model).slice(0, 140),
          });
        }
      }),
    [],
  );
}
