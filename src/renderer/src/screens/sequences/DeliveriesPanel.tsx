import { Progress } from 'radix-ui';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BROADCAST_LOUDNESS_LUFS,
  DELIVERY_PRESETS,
  DELIVERY_PRESET_NAMES,
  WEB_LOUDNESS_LUFS,
  type DeliveryFitName,
  type DeliveryPresetName,
} from '../../../../shared/delivery-formats';
import { useStudio } from '../../store';
import { useDeliveries } from '../../store/deliveries-store';
import { formatBytes } from '../create/form-model';
import { formatSeconds } from './sequence-model';
import { SafeAreaPreview } from './SafeAreaPreview';
import './deliveries-i18n';

/**
 * Deliver (issue 31): formats chosen by checkboxes, each padded or cropped, a loudness target,
 * captions burned in or not; a safe-area preview of the chosen format; each delivery's progress
 * (cancellable) and, once ready, a link that plays it in the library.
 */
export function DeliveriesPanel() {
  const { t } = useTranslation();
  const sequence = useStudio((s) => s.sequence);
  const stored = useDeliveries((s) => s.deliveries);
  const busy = useDeliveries((s) => s.busy);
  const error = useDeliveries((s) => s.error);
  const loadDeliveries = useDeliveries((s) => s.loadDeliveries);
  const deliverFormats = useDeliveries((s) => s.deliver);
  const cancelDelivery = useDeliveries((s) => s.cancelDelivery);
  const playInLibrary = useDeliveries((s) => s.playInLibrary);
  const sequenceId = sequence?.sequenceId ?? null;
  const [chosen, setChosen] = useState<Record<DeliveryPresetName, boolean>>({
    '16x9': true,
    '9x16': false,
    '1x1': false,
  });
  const [fits, setFits] = useState<Record<DeliveryPresetName, DeliveryFitName>>({
    '16x9': 'pad',
    '9x16': 'pad',
    '1x1': 'pad',
  });
  const [previewed, setPreviewed] = useState<DeliveryPresetName>('16x9');
  const [loudness, setLoudness] = useState<number>(WEB_LOUDNESS_LUFS);
  const [burnCaptions, setBurnCaptions] = useState(false);

  useEffect(() => {
    if (sequenceId) void loadDeliveries(sequenceId);
  }, [sequenceId, loadDeliveries]);

  if (!sequence) return null;
  const picked = DELIVERY_PRESET_NAMES.filter((p) => chosen[p]);

  const deliveries = stored?.sequenceId === sequenceId ? stored.list : [];
  const deliver = () =>
    sequenceId
      ? deliverFormats(
          picked.map((preset) => ({
            sequenceId,
            preset,
            fit: fits[preset],
            loudnessTarget: loudness,
            burnCaptions,
          })),
        )
      : Promise.resolve(false);

  const assemblyUrl = sequence.assembly?.state === 'ready' ? sequence.assembly.mediaUrl : null;

  return (
    <section className="panel deliveries" aria-labelledby="deliveries-title" data-testid="deliveries-panel">
      <h3 id="deliveries-title">{t('deliveries.title')}</h3>
      <p className="muted small">{t('deliveries.hint')}</p>
      <fieldset className="deliveries-formats">
        <legend className="field-label">{t('deliveries.formats')}</legend>
        {DELIVERY_PRESET_NAMES.map((preset) => {
          const frame = DELIVERY_PRESETS[preset];
          return (
            <div className="deliveries-format" key={preset}>
              <label>
                <input
                  type="checkbox"
                  data-testid={`delivery-preset-${preset}`}
                  checked={chosen[preset]}
                  onChange={(e) => {
                    setChosen({ ...chosen, [preset]: e.target.checked });
                    if (e.target.checked) setPreviewed(preset);
                  }}
                />{' '}
                {t('deliveries.preset', { label: frame.label, width: frame.width, height: frame.height })}
              </label>
              <select
                className="input"
                aria-label={t('deliveries.fit', { label: frame.label })}
                data-testid={`delivery-fit-${preset}`}
                value={fits[preset]}
                onChange={(e) => {
                  setFits({ ...fits, [preset]: e.target.value as DeliveryFitName });
                  setPreviewed(preset);
                }}
              >
                <option value="pad">{t('deliveries.pad')}</option>
                <option value="crop">{t('deliveries.crop')}</option>
              </select>
              <button
                type="button"
                className="button button-small"
                aria-pressed={previewed === preset}
                data-testid={`delivery-preview-${preset}`}
                onClick={() => setPreviewed(preset)}
              >
                {t('deliveries.preview', { label: frame.label })}
              </button>
            </div>
          );
        })}
      </fieldset>
      <SafeAreaPreview preset={previewed} fit={fits[previewed]} videoUrl={assemblyUrl} />
      <div className="row">
        <label className="field-label" htmlFor="delivery-loudness">
          {t('deliveries.loudness')}
        </label>
        <select
          id="delivery-loudness"
          className="input"
          data-testid="delivery-loudness"
          value={String(loudness)}
          onChange={(e) => setLoudness(Number(e.target.value))}
        >
          <option value={String(WEB_LOUDNESS_LUFS)}>{t('deliveries.web')}</option>
          <option value={String(BROADCAST_LOUDNESS_LUFS)}>{t('deliveries.broadcast')}</option>
        </select>
        <label>
          <input
            type="checkbox"
            data-testid="delivery-burn-captions"
            checked={burnCaptions}
            onChange={(e) => setBurnCaptions(e.target.checked)}
          />{' '}
          {t('deliveries.burnCaptions')}
        </label>
        <button
          type="button"
          className="button button-primary"
          data-testid="delivery-start"
          disabled={busy || picked.length === 0 || !sequence.assemblable}
          onClick={() => void deliver()}
        >
          {busy ? t('deliveries.delivering') : t('deliveries.deliver')}
        </button>
      </div>
      {picked.length === 0 ? <p className="muted small">{t('deliveries.noneChosen')}</p> : null}
      {!sequence.assemblyCurrent ? <p className="muted small">{t('deliveries.needsAssembly')}</p> : null}
      {error ? (
        <p role="alert" className="error-text" data-testid="delivery-error">
          {t('deliveries.failed', { message: error })}
        </p>
      ) : null}
      <h4>{t('deliveries.list')}</h4>
      {deliveries.length === 0 ? <p className="muted small">{t('deliveries.none')}</p> : null}
      <ul className="deliveries-list" data-testid="deliveries-list">
        {deliveries.map((d) => {
          const label = DELIVERY_PRESETS[d.preset].label;
          const percent = Math.round(Math.min(1, Math.max(0, d.progress)) * 100);
          return (
            <li key={d.deliveryId} data-testid="delivery" data-preset={d.preset} data-state={d.state}>
              <strong>{label}</strong>
              <span className="muted small">
                {t(`deliveries.${d.fit}`)} · {t(`deliveries.state_${d.state}`)}
              </span>
              {d.state === 'rendering' ? (
                <>
                  <Progress.Root
                    className="progress"
                    value={percent}
                    aria-label={t('deliveries.rendering', { label, percent })}
                    data-testid="delivery-progress"
                    data-progress={d.progress}
                  >
                    <Progress.Indicator
                      className="progress-indicator"
                      style={{ transform: `translateX(-${100 - percent}%)` }}
                    />
                  </Progress.Root>
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={t('deliveries.cancelLabel', { label })}
                    data-testid="delivery-cancel"
                    onClick={() => void cancelDelivery(d.deliveryId)}
                  >
                    {t('deliveries.cancel')}
                  </button>
                </>
              ) : null}
              {d.state === 'ready' ? (
                <>
                  <span className="small" data-testid="delivery-facts">
                    {d.fileName}
                    {d.byteSize !== null ? ` · ${formatBytes(d.byteSize)}` : ''}
                    {d.durationSeconds !== null ? ` · ${formatSeconds(d.durationSeconds, 2)}` : ''}
                    {d.measuredLufs !== null
                      ? ` · ${t('deliveries.measured', { lufs: d.measuredLufs, target: d.loudnessTarget })}`
                      : ''}
                    {d.burnCaptions ? ` · ${t('deliveries.captionsBurned')}` : ''}
                    {d.reused ? ` · ${t('deliveries.reused')}` : ''}
                  </span>
                  <button
                    type="button"
                    className="button button-small"
                    aria-label={t('deliveries.playLabel', { label })}
                    data-testid="delivery-play"
                    onClick={() => playInLibrary(d.deliveryId)}
                  >
                    {t('deliveries.play')}
                  </button>
                </>
              ) : null}
              {d.state === 'failed' && d.errorMessage ? (
                <span className="error-text small">{d.errorMessage}</span>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
