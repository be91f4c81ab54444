/**
 * A labelled number field of the sound track (a gain, the duck, a line's time): its label, and a
 * narrow number input whose `id` is also its `data-testid`.
 */
export function NumberField({
  id,
  label,
  min,
  max,
  step,
  value,
  onChange,
}: {
  id: string;
  label: string;
  min: number;
  max?: number;
  step: number;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <>
      <label className="field-label" htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className="input input-narrow"
        type="number"
        min={min}
        max={max}
        step={step}
        data-testid={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </>
  );
}
