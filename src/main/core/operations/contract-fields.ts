import { codePointLength } from '../../../shared/api/common.js';
import { contractParameterOf, readMediaSpec } from '../../../shared/api/contract-vocabulary.js';
import type { ServiceEntry } from '../../../shared/api/discovery.js';
import type { ContractParameter } from '../../../shared/api/media-spec-contract.js';
import { InputLimitError } from './service-common.js';

export function contractParameter(service: ServiceEntry, name: string): ContractParameter | undefined {
  return contractParameterOf(readMediaSpec(service.mediaSpecContract), name);
}

/** Names the contract publishes (parameters and required fields). */
export function publishedFields(service: ServiceEntry): Set<string> {
  const contract = readMediaSpec(service.mediaSpecContract);
  return new Set([...contract.parameters.map((p) => p.name), ...contract.requiredFields]);
}

/**
 * Checks one optional field against the live contract: it must be published, and its value must
 * fit the published enum values, integer range or length. Undefined values are not sent, not checked.
 */
export function checkField(service: ServiceEntry, name: string, value: unknown, mode?: string): void {
  if (value === undefined) return;
  const param = contractParameter(service, name);
  if (!param) {
    if (publishedFields(service).has(name)) return;
    throw new InputLimitError(name, `${service.modelAlias} does not take ${name}.`);
  }
  if (mode && param.modes && !param.modes.includes(mode))
    throw new InputLimitError(name, `${name} is only taken in ${param.modes.join(', ')} mode (not ${mode}).`);
  if (param.values && !param.values.includes(value as string | number))
    throw new InputLimitError(
      name,
      `${name} must be one of ${param.values.join(', ')} (got ${String(value)}).`,
    );
  if (param.type === 'integer') {
    if (typeof value !== 'number' || !Number.isInteger(value))
      throw new InputLimitError(name, `${name} must be a whole number (got ${String(value)}).`);
  }
  if (typeof value === 'number') {
    if (param.minimum !== undefined && value < param.minimum)
      throw new InputLimitError(name, `${name} must be at least ${param.minimum} (got ${value}).`);
    if (param.maximum !== undefined && value > param.maximum)
      throw new InputLimitError(name, `${name} must be at most ${param.maximum} (got ${value}).`);
  }
  if (typeof value === 'string' && param.maxLength !== undefined) {
    const length = codePointLength(value);
    if (length > param.maxLength)
      throw new InputLimitError(
        name,
        `${name} has ${length} characters; at most ${param.maxLength} are allowed.`,
      );
  }
}

/** A required text: non-empty after trimming and at most `max` code points. */
export function checkText(name: string, value: string | undefined, max: number | undefined): string {
  if (value === undefined || value.trim().length === 0)
    throw new InputLimitError(name, `${name} is required.`);
  const length = codePointLength(value);
  if (max !== undefined && length > max)
    throw new InputLimitError(name, `${name} has ${length} characters; at most ${max} are allowed.`);
  return value;
}
