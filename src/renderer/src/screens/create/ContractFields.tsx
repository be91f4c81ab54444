import { RadioGroup, Slider, Switch } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import type { ContractParameter } from '../../../../shared/api/media-spec-contract';
import type { DraftForm, ServiceEntryView } from '../../../../shared/bridge/contract';
import { parameterApplies, violationsFor, type EffectiveLimits, type Violation } from '../../../../shared/h3';
import { ViolationList } from './ViolationList';
import { parameterOf } from './form-model';

interface Props {
  service: ServiceEntryView;
  limits: EffectiveLimits;
  form: DraftForm;
  violations: readonly Violation[];
  disabled: boolean;
  onChange(patch: Partial<DraftForm>): void;
  onModeChange(mode: string): void;
}

/** An enum: a segmented control for a few values, a select for many. */
function Choice(props: {
  name: string;
  label: string;
  description?: string;
  values: readonly (string | number)[];
  value: string | number | undefined;
  disabled: boolean;
  display?: (value: string) => string;
  onChange(value: string): void;
}) {
  const id = `field-${props.name}`;
  const show = props.display ?? ((v: string) => v);
  return (
    <div className="field" data-testid={id}>
      <span className="field-label" id={`${id}-label`} title={props.description}>
        {props.label}
      </span>
      {props.values.length <= 5 ? (
        <RadioGroup.Root
          className="segmented"
          aria-labelledby={`${id}-label`}
          value={props.value === undefined ? '' : String(props.value)}
          disabled={props.disabled}
          onValueChange={props.onChange}
        >
          {props.values.map((v) => (
            <RadioGroup.Item
              key={String(v)}
              value={String(v)}
              className="segment"
              data-testid={`option-${props.name}-${String(v)}`}
            >
              {show(String(v))}
            </RadioGroup.Item>
          ))}
        </RadioGroup.Root>
      ) : (
        <select
          className="select-trigger"
          aria-labelledby={`${id}-label`}
          data-testid={`${id}-select`}
          value={props.value === undefined ? '' : String(props.value)}
          disabled={props.disabled}
          onChange={(e) => props.onChange(e.target.value)}
        >
          {props.value === undefined ? <option value="" disabled /> : null}
          {props.values.map((v) => (
            <option key={String(v)} value={String(v)}>
              {show(String(v))}
            </option>
          ))}
        </select>
      )}
      {props.description ? <p className="hint">{props.description}</p> : null}
    </div>
  );
}

/** An integer range: a slider plus an input, both on the same value. */
function Range(props: {
  name: string;
  label: string;
  description?: string;
  min: number;
  max: number;
  value: number;
  disabled: boolean;
  onChange(value: number): void;
}) {
  const id = `field-${props.name}`;
  const wide = props.max - props.min > 1000;
  return (
    <div className="field" data-testid={id}>
      <label className="field-label" htmlFor={`${id}-input`} title={props.description}>
        {props.label}
      </label>
      <div className="range-row">
        {wide ? null : (
          <Slider.Root
            className="slider"
            min={props.min}
            max={props.max}
            step={1}
            value={[props.value]}
            disabled={props.disabled}
            onValueChange={([v]) => v !== undefined && props.onChange(v)}
            aria-label={props.label}
          >
            <Slider.Track className="slider-track">
              <Slider.Range className="slider-range" />
            </Slider.Track>
            <Slider.Thumb className="slider-thumb" aria-label={props.label} />
          </Slider.Root>
        )}
        <input
          id={`${id}-input`}
          data-testid={`${id}-input`}
          className="input input-number"
          type="number"
          min={props.min}
          max={props.max}
          step={1}
          value={Number.isFinite(props.value) ? props.value : ''}
          disabled={props.disabled}
          onChange={(e) => props.onChange(e.target.value === '' ? NaN : Number(e.target.value))}
        />
      </div>
      {props.description ? <p className="hint">{props.description}</p> : null}
    </div>
  );
}

/** Any other published parameter, with a control for its type. */
function ExtraField(props: {
  p: ContractParameter;
  value: unknown;
  disabled: boolean;
  onChange(value: unknown): void;
}) {
  const { p } = props;
  if (p.type === 'enum' && p.values?.length)
    return (
      <Choice
        name={p.name}
        label={p.name}
        description={p.description}
        values={p.values}
        value={props.value as string | number | undefined}
        disabled={props.disabled}
        onChange={(v) => props.onChange(typeof p.values![0] === 'number' ? Number(v) : v)}
      />
    );
  if ((p.type === 'integer' || p.type === 'number') && p.minimum !== undefined && p.maximum !== undefined)
    return (
      <Range
        name={p.name}
        label={p.name}
        description={p.description}
        min={p.minimum}
        max={p.maximum}
        value={typeof props.value === 'number' ? props.value : p.minimum}
        disabled={props.disabled}
        onChange={props.onChange}
      />
    );
  if (p.type === 'boolean')
    return (
      <div className="field" data-testid={`field-${p.name}`}>
        <label className="field-label switch-row">
          <Switch.Root
            className="switch"
            checked={props.value === true}
            disabled={props.disabled}
            onCheckedChange={props.onChange}
          >
            <Switch.Thumb className="switch-thumb" />
          </Switch.Root>
          {p.name}
        </label>
        {p.description ? <p className="hint">{p.description}</p> : null}
      </div>
    );
  return (
    <div className="field" data-testid={`field-${p.name}`}>
      <label className="field-label" htmlFor={`field-${p.name}-input`}>
        {p.name}
      </label>
      <input
        id={`field-${p.name}-input`}
        className="input"
        type={p.type === 'integer' || p.type === 'number' ? 'number' : 'text'}
        value={props.value === undefined || props.value === null ? '' : String(props.value)}
        disabled={props.disabled}
        onChange={(e) =>
          props.onChange(
            e.target.value === ''
              ? undefined
              : p.type === 'integer' || p.type === 'number'
                ? Number(e.target.value)
                : e.target.value,
          )
        }
      />
      {p.description ? <p className="hint">{p.description}</p> : null}
    </div>
  );
}

/** The form generated from the service's contract; nothing here names a model or a value. */
export function ContractFields({
  service,
  limits,
  form,
  violations,
  disabled,
  onChange,
  onModeChange,
}: Props) {
  const { t } = useTranslation();
  const describe = (name: string) => parameterOf(service, name)?.description;
  const orientations = limits.canvasesFromContract
    ? Object.keys(limits.canvases[form.resolutionTier] ?? {})
    : limits.orientations;
  const seed = limits.seed;
  const seedLocked = form.seed !== null && form.seed !== undefined;
  return (
    <div className="panel" aria-labelledby="contract-fields-title">
      <h2 id="contract-fields-title">{t('studio.create.settings')}</h2>
      <Choice
        name="generationMode"
        label={t('studio.create.mode')}
        description={describe('generationMode')}
        values={Object.keys(limits.modes)}
        value={form.generationMode}
        disabled={disabled}
        display={(v) => t(`modeName.${v}`, { defaultValue: v })}
        onChange={onModeChange}
      />
      <ViolationList violations={violationsFor(violations, 'generationMode')} />
      <Choice
        name="resolutionTier"
        label={t('studio.create.resolutionTier')}
        description={describe('resolutionTier')}
        values={limits.resolutionTiers}
        value={form.resolutionTier}
        disabled={disabled}
        onChange={(v) => onChange({ resolutionTier: v })}
      />
      <ViolationList violations={violationsFor(violations, 'resolutionTier')} />
      <Choice
        name="orientation"
        label={t('studio.create.orientation')}
        description={describe('orientation')}
        values={orientations.length ? orientations : limits.orientations}
        value={form.orientation}
        disabled={disabled}
        onChange={(v) => onChange({ orientation: v })}
      />
      <ViolationList violations={violationsFor(violations, 'orientation')} />
      {limits.seconds.values?.length ? (
        <Choice
          name="seconds"
          label={t('studio.create.seconds')}
          description={describe('seconds')}
          values={limits.seconds.values}
          value={form.seconds}
          disabled={disabled}
          onChange={(v) => onChange({ seconds: Number(v) })}
        />
      ) : (
        <Range
          name="seconds"
          label={t('studio.create.seconds')}
          description={describe('seconds')}
          min={limits.seconds.min}
          max={limits.seconds.max}
          value={form.seconds}
          disabled={disabled}
          onChange={(v) => onChange({ seconds: v })}
        />
      )}
      <ViolationList violations={violationsFor(violations, 'seconds')} />
      <div className="field" data-testid="field-seed">
        <label className="field-label switch-row">
          <Switch.Root
            className="switch"
            data-testid="seed-lock"
            checked={seedLocked}
            disabled={disabled}
            onCheckedChange={(on) => onChange({ seed: on ? Math.max(seed.min, 0) : null })}
          >
            <Switch.Thumb className="switch-thumb" />
          </Switch.Root>
          {t('studio.create.seed')}:{' '}
          {seedLocked ? t('studio.create.seedLocked') : t('studio.create.seedPlatform')}
        </label>
        {seedLocked ? (
          <input
            className="input input-number"
            data-testid="seed-input"
            type="number"
            min={seed.min}
            max={seed.max}
            step={1}
            value={Number.isFinite(form.seed) ? (form.seed as number) : ''}
            disabled={disabled}
            aria-label={t('studio.create.seed')}
            onChange={(e) => onChange({ seed: e.target.value === '' ? NaN : Number(e.target.value) })}
          />
        ) : null}
        {describe('seed') ? <p className="hint">{describe('seed')}</p> : null}
      </div>
      <ViolationList violations={violationsFor(violations, 'seed')} />
      {limits.extraParameters
        .filter((p) => parameterApplies(p, form.generationMode))
        .map((p) => (
          <div key={p.name}>
            <ExtraField
              p={p}
              value={form.extra?.[p.name]}
              disabled={disabled}
              onChange={(value) => onChange({ extra: { ...(form.extra ?? {}), [p.name]: value } })}
            />
            <ViolationList violations={violationsFor(violations, { field: p.name })} />
          </div>
        ))}
    </div>
  );
}
