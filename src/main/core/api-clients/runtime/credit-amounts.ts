/**
 * Credit amounts of the platform's usage are integers scaled by `amountScale` (the amount is
 * `value / 10^amountScale`). They are kept as bigint and written as decimal strings, so no
 * division ever goes through a float (0.1 + 0.2 stays 0.3).
 */

/** The largest `amountScale` accepted (an answer past it is refused as malformed). */
export const MAX_AMOUNT_SCALE = 18;

/** An integer amount as the service sent it (a JSON integer or a string of digits) → bigint; undefined if it is neither. */
export function rawAmount(value: unknown): bigint | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d{1,60}$/.test(value)) return BigInt(value);
  return undefined;
}

export function isAmountScale(scale: unknown): scale is number {
  return typeof scale === 'number' && Number.isInteger(scale) && scale >= 0 && scale <= MAX_AMOUNT_SCALE;
}

/** `raw` at `from` decimals expressed at `to` (≥ from) decimals: exact. */
export function rescale(raw: bigint, from: number, to: number): bigint {
  if (to < from) throw new RangeError(`Cannot rescale from ${from} to fewer decimals (${to}).`);
  return raw * 10n ** BigInt(to - from);
}

/** `raw / 10^scale` as a decimal string with exactly `scale` decimals: 150 at 2 → "1.50", 7 at 0 → "7". */
export function formatScaled(raw: bigint, scale: number): string {
  if (!isAmountScale(scale)) throw new RangeError(`amountScale must be an integer 0..${MAX_AMOUNT_SCALE}.`);
  const negative = raw < 0n;
  const digits = (negative ? -raw : raw).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}
