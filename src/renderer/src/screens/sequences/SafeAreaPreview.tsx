import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DELIVERY_PRESETS,
  SAFE_AREAS,
  fittedPicture,
  type DeliveryFitName,
  type DeliveryPresetName,
} from '../../../../shared/delivery-formats';
import './deliveries-i18n';

/** H3's landscape canvas, until the assembly's own size is read from its file. */
const DEFAULT_SOURCE = { width: 1376, height: 768 };

const percent = (part: number, whole: number) => `${(part / whole) * 100}%`;

/**
 * A frame of the assembly in the preset's frame, padded or cropped as the delivery will be, with
 * the action-safe (dashed) and title-safe (dotted) guides drawn over it.
 */
export function SafeAreaPreview({
  preset,
  fit,
  videoUrl,
}: {
  preset: DeliveryPresetName;
  fit: DeliveryFitName;
  videoUrl: string | null;
}) {
  const { t } = useTranslation();
  const [source, setSource] = useState(DEFAULT_SOURCE);
  const frame = DELIVERY_PRESETS[preset];
  const picture = fittedPicture(source, frame, fit);
  // a guide is the middle `fraction` of the frame on both axes
  const guide = (fraction: number) => {
    const margin = `${Math.round((1 - fraction) * 5000) / 100}%`;
    const size = `${Math.round(fraction * 10000) / 100}%`;
    return { left: margin, top: margin, width: size, height: size };
  };
  return (
    <figure className="safe-area" data-testid="delivery-preview" data-preset={preset} data-fit={fit}>
      <div
        className="safe-area-frame"
        role="img"
        aria-label={t('deliveries.preview', { label: frame.label })}
        style={{ aspectRatio: `${frame.width} / ${frame.height}` }}
      >
        {videoUrl ? (
          <video
            className="safe-area-picture"
            src={`${videoUrl}#t=0.5`}
            muted
            preload="metadata"
            playsInline
            aria-hidden="true"
            data-testid="delivery-preview-picture"
            onLoadedMetadata={(e) => {
              const { videoWidth, videoHeight } = e.currentTarget;
              if (videoWidth > 0 && videoHeight > 0) setSource({ width: videoWidth, height: videoHeight });
            }}
            style={{
              left: percent(picture.x, frame.width),
              top: percent(picture.y, frame.height),
              width: percent(picture.width, frame.width),
              height: percent(picture.height, frame.height),
            }}
          />
        ) : null}
        <div className="safe-area-guide safe-area-action" style={guide(SAFE_AREAS.action)} />
        <div className="safe-area-guide safe-area-title" style={guide(SAFE_AREAS.title)} />
      </div>
      <figcaption className="muted small">{t('deliveries.previewHint')}</figcaption>
    </figure>
  );
}
