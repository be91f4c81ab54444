import { codePointLength } from '../../shared/api/common.js';
import type { ContractParameter, MediaSpecContract } from '../../shared/api/media-spec-contract.js';
import { invalidField } from '../errors.js';

/** Rejects body fields the contract does not publish (the live contract decides which fields a request may carry). */
export function rejectUndeclaredFields(
  raw: Record<string, unknown>,
  contract: MediaSpecContract,
  extra: string[] = [],
): void {
  const allowed = new Set(['model', ...extra, ...(contract.parameters ?? []).map((p) => p.name)]);
  const extraFields = Object.keys(raw).filter((key) => !allowed.has(key));
  if (extraFields.length > 0) {
    throw invalidField(
      'field_not_supported',
      extraFields[0]!,
      `This model does not take: ${extraFields.join(', ')}.`,
      {
        fields: extraFields,
      },
    );
  }
}

export function param(contract: MediaSpecContract, name: string): ContractParameter | undefined {
  return contract.parameters?.find((p) => p.name === name);
}

/** Checks an enum value against the contract parameter's `values`. */
export function checkEnum(
  contract: MediaSpecContract,
  name: string,
  value: string | undefined,
): string | undefined {
  const p = param(contract, name);
  if (value === undefined) return p?.default as string | undefined;
  const values = p?.values?.map(String);
  if (!values || !values.includes(value)) {
    throw invalidField(
      `invalid_${name}`,
      name,
      `${name} must be one of ${(values ?? []).join(', ') || '(none)'}.`,
      { allowed: values ?? [] },
    );
  }
  return value;
}

/** Checks an integer against the contract parameter's bounds. */
export function checkRange(
  contract: MediaSpecContract,
  name: string,
  value: number | undefined,
): number | undefined {
  const p = param(contract, name);
  if (value === undefined) return p?.default as number | undefined;
  if ((p?.minimum !== undefined && value < p.minimum) || (p?.maximum !== undefined && value > p.maximum)) {
    throw invalidField(
      `invalid_${name}`,
      name,
      `${name} must be ${p?.minimum ?? '-∞'}..${p?.maximum ?? '∞'}.`,
      {
        minimum: p?.minimum,
        maximum: p?.maximum,
      },
    );
  }
  return value;
}

/** A text field bounded in code points (after trimming when `trim`). */
export function checkText(
  name: string,
  value: string | undefined,
  bounds: { min?: number; max?: number; required?: boolean; trim?: boolean },
): string | undefined {
  if (value === undefined) {
    if (bounds.required) throw invalidField('missing_field', name, `Required field missing: ${name}.`);
    return undefined;
  }
  const text = bounds.trim === false ? value : value.trim();
  const length = codePointLength(text);
  const min = bounds.min ?? 1;
  if (length < min || (bounds.max !== undefined && length > bounds.max)) {
    throw invalidField(
      `invalid_${name}_length`,
      name,
      `${name} must be ${min}..${bounds.max ?? '∞'} characters (got ${length}).`,
      {
        length,
        minimum: min,
        maximum: bounds.max,
      },
    );
  }
  return text;
}
