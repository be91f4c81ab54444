import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validateDraft } from '../../../../shared/h3';
import { useStudio } from '../../store';
import { limitsOf, toVideoDraft } from '../create/form-model';
import { ViolationList } from '../create/ViolationList';
import { shotForm, shotOrientations, shotSecondsChoices, shotService } from './sequence-model';

/**
 * A new text-to-video shot at the end of the sequence: prompt, seconds and orientation; the rest
 * is Create's defaults for the first available video service of the profile.
 */
export function AddShotForm() {
  const { t } = useTranslation();
  const services = useStudio((s) => s.services);
  const servicesProfileId = useStudio((s) => s.servicesProfileId);
  const servicesError = useStudio((s) => s.servicesError);
  const activeProfileId = useStudio((s) => s.activeProfileId);
  const loadServices = useStudio((s) => s.loadServices);
  const addShot = useStudio((s) => s.addShot);
  const busy = useStudio((s) => s.sequenceBusy.includes('add'));
  const [prompt, setPrompt] = useState('');
  const [seconds, setSeconds] = useState<number | null>(null);
  const [orientation, setOrientation] = useState<string | null>(null);

  useEffect(() => {
    if (servicesProfileId === null) void loadServices();
  }, [servicesProfileId, loadServices]);

  const service = useMemo(() => shotService(services), [services]);
  const limits = useMemo(() => (service ? limitsOf(service) : undefined), [service]);
  const secondsChoices = useMemo(() => (limits ? shotSecondsChoices(limits) : []), [limits]);
  const profileId = servicesProfileId ?? activeProfileId ?? 'simulator';
  const form = useMemo(() => {
    if (!service || !limits) return null;
    const defaults = shotForm(service, profileId, { prompt, seconds: 0, orientation: '' });
    return shotForm(service, profileId, {
      prompt,
      seconds:
        seconds ?? (secondsChoices.includes(defaults.seconds) ? defaults.seconds : (secondsChoices[0] ?? 0)),
      orientation: orientation ?? defaults.orientation,
    });
  }, [service, limits, profileId, prompt, seconds, orientation, secondsChoices]);
  const violations = useMemo(
    () => (form && limits && prompt.trim() ? validateDraft(toVideoDraft(form), limits) : []),
    [form, limits, prompt],
  );

  return (
    <form
      className="panel add-shot"
      aria-labelledby="add-shot-title"
      onSubmit={(e) => {
        e.preventDefault();
        if (!form) return;
        void addShot(form).then((done) => {
          if (done) setPrompt('');
        });
      }}
    >
      <h3 id="add-shot-title">{t('studio.sequences.addShotTitle')}</h3>
      {servicesError ? (
        <p role="alert" className="error-text small">
          {servicesError}
        </p>
      ) : null}
      {!service && servicesProfileId !== null ? (
        <p className="muted small">{t('studio.create.noServices')}</p>
      ) : null}
      <label className="field-label" htmlFor="add-shot-prompt">
        {t('studio.create.prompt')}
      </label>
      <textarea
        id="add-shot-prompt"
        className="input textarea shot-textarea"
        data-testid="sequence-shot-prompt"
        value={prompt}
        onChange={(e) => setPrompt(e.target.value)}
      />
      <div className="row">
        <label className="field-label" htmlFor="add-shot-seconds">
          {t('studio.create.seconds')}
        </label>
        <select
          id="add-shot-seconds"
          className="input"
          data-testid="sequence-shot-seconds"
          value={form?.seconds ?? ''}
          disabled={!form}
          onChange={(e) => setSeconds(Number(e.target.value))}
        >
          {secondsChoices.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <label className="field-label" htmlFor="add-shot-orientation">
          {t('studio.create.orientation')}
        </label>
        <select
          id="add-shot-orientation"
          className="input"
          data-testid="sequence-shot-orientation"
          value={form?.orientation ?? ''}
          disabled={!form}
          onChange={(e) => setOrientation(e.target.value)}
        >
          {(form && limits ? shotOrientations(limits, form.resolutionTier) : []).map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
        {service ? <span className="muted small">{service.displayName}</span> : null}
      </div>
      <ViolationList violations={violations} testId="sequence-shot-violations" />
      <button
        type="submit"
        className="button button-primary"
        data-testid="sequence-add-shot"
        disabled={!form || !prompt.trim() || violations.length > 0 || busy}
      >
        {t('studio.sequences.addShot')}
      </button>
    </form>
  );
}
