import { Progress } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { progressIndicator } from '../../components/progress-indicator';
import { useStudio } from '../../store';

/** The draft's reference uploads while it is submitted: each file's state and the share of its bytes sent. */
export function UploadProgress({ draftId }: { draftId: string }) {
  const { t } = useTranslation();
  const uploads = useStudio((s) => s.uploads);
  const mine = Object.entries(uploads).filter(([k]) => k.startsWith(`${draftId}\u0000`));
  if (!mine.length) return null;
  return (
    <ul className="muted small" data-testid="upload-progress">
      {mine.map(([k, upload]) => {
        const name = k.split('\u0000')[1];
        const value =
          upload.sentBytes !== null && upload.totalBytes
            ? Math.min(100, Math.round((upload.sentBytes / upload.totalBytes) * 100))
            : null;
        return (
          <li key={k} data-testid="upload-item">
            <span>
              {name}: {t(`studio.create.upload.${upload.state}`, { defaultValue: upload.state })}
              {value !== null && upload.state === 'uploading' ? ` ${value}%` : ''}
            </span>
            {upload.state !== 'reused' ? (
              <Progress.Root
                className="progress"
                value={value}
                data-testid="upload-bar"
                aria-label={t('studio.create.upload.bar', { name })}
              >
                <Progress.Indicator {...progressIndicator(value)} />
              </Progress.Root>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}
