import { useTranslation } from 'react-i18next';
import type { ServiceEntryView } from '../../../../shared/bridge/contract';
import { useStudio } from '../../store';

/** The video service of the draft, from discovery; services that cannot be called are listed with why. */
export function ServicePicker({
  service,
  disabled,
}: {
  service: ServiceEntryView | undefined;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const services = useStudio((s) => s.services);
  const servicesError = useStudio((s) => s.servicesError);
  const editForm = useStudio((s) => s.editForm);
  const unavailable = services.filter((s) => !s.available);
  return (
    <div className="panel">
      <label className="field-label" htmlFor="service-select">
        {t('studio.create.service')}
      </label>
      {/* a native select: the first screen carries no pop-up library (see renderer-chunks.mjs) */}
      <select
        id="service-select"
        className="select-trigger"
        data-testid="service-select"
        value={service?.modelAlias ?? ''}
        disabled={disabled}
        onChange={(e) => editForm({ model: e.target.value })}
      >
        {service === undefined ? <option value="" disabled /> : null}
        {services.map((s) => (
          <option
            key={s.modelAlias}
            value={s.modelAlias}
            disabled={!s.available}
            data-testid={`service-${s.modelAlias}`}
            title={s.available ? undefined : t(whyNotCallable(s))}
          >
            {s.available ? s.displayName : t('studio.create.serviceUnavailable', { name: s.displayName })}
          </option>
        ))}
      </select>
      {unavailable.length ? (
        <ul className="muted small" data-testid="unavailable-services">
          {unavailable.map((s) => (
            <li key={s.modelAlias}>
              {t('studio.create.serviceUnavailable', { name: s.displayName })}. {t(whyNotCallable(s))}
            </li>
          ))}
        </ul>
      ) : null}
      {services.length === 0 && !servicesError ? (
        <p className="hint">{t('studio.create.noServices')}</p>
      ) : null}
    </div>
  );
}

/** The reason shown for a service that is not callable: it says it is not available, or does not say. */
function whyNotCallable(s: ServiceEntryView): string {
  return s.availability === 'not_stated'
    ? 'studio.create.serviceAvailabilityNotStated'
    : 'studio.create.serviceUnavailableWhy';
}
