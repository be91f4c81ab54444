import { z } from 'zod';
import { AppError } from '../errors.js';
import { formatScaled, MAX_AMOUNT_SCALE, rawAmount } from '../platform/runtime/credit-amounts.js';

/** The one runtime call this needs (lane runtime-jobs' client provides it). */
export interface RuntimeDryRun {
  /** `POST {runtime}/media/jobs:dry-run` with the job-creation body; the 200 answer. */
  dryRun(body: Record<string, unknown>): Promise<unknown>;
}

const Blocker = z.looseObject({
  code: z.string(),
  phase: z.string(),
  message: z.string(),
  retryable: z.boolean(),
  httpStatus: z.number().optional(),
});

const EstimatedCost = z.looseObject({
  /** An integer at `amountScale` decimals (a JSON integer or a string of digits). */
  estimatedAmount: z.union([z.number().int(), z.string().regex(/^-?\d{1,60}$/)]),
  currency: z.string().optional(),
  unit: z.string().optional(),
  usage: z.number().optional(),
  resourceType: z.string().optional(),
  amountScale: z.number().int().min(0).max(MAX_AMOUNT_SCALE).optional(),
});

const ReadUrlCheck = z.looseObject({
  index: z.number().int().optional(),
  role: z.string().optional(),
  ok: z.boolean().optional(),
  code: z.string().optional(),
});

/** The spec's dry-run result, as far as the admission view reads it. */
export const DryRunResult = z.looseObject({
  accepted: z.boolean(),
  estimatedCost: EstimatedCost.optional(),
  blockers: z.array(Blocker).default([]),
  readUrlChecks: z.array(ReadUrlCheck).optional(),
  traceId: z.string().optional(),
});
export type DryRunResult = z.infer<typeof DryRunResult>;

/** The bridge's `video.admission` result. */
export interface AdmissionView {
  admitted: boolean | null;
  admission: Record<string, unknown>;
  generatedAt: string;
}

/** "7.50 CREDIT per 5 second": the amount scaled by `amountScale` (default 0), with its unit. */
export function costText(cost: z.infer<typeof EstimatedCost>): string {
  const scale = cost.amountScale ?? 0;
  const raw = rawAmount(cost.estimatedAmount);
  // exact: the integer amount moved `scale` decimals, never divided as a float
  const amount = raw === undefined ? String(cost.estimatedAmount) : formatScaled(raw, scale);
  const usage =
    cost.usage !== undefined && cost.unit
      ? ` for ${cost.usage} ${cost.unit}${cost.usage === 1 ? '' : 's'}`
      : '';
  return `${amount}${cost.currency ? ` ${cost.currency}` : ''}${usage}`;
}

/** One blocker as the creator reads it: its message and the phase it stopped at. */
export function blockerText(b: z.infer<typeof Blocker>): string {
  return `${b.message} (${b.phase.replace(/_/g, ' ')})`;
}

/**
 * Maps a runtime dry-run result onto the studio's admission view: `admitted` is `accepted`; the
 * view's `reason` (what Create shows, and why Generate is disabled) lists every blocker's message
 * and phase; `estimatedCost` carries the scaled amount as text next to the raw figures; the
 * blockers and the `readUrl` checks are kept for the details.
 */
export function admissionViewOfDryRun(raw: unknown, generatedAt: Date = new Date()): AdmissionView {
  const parsed = DryRunResult.safeParse(raw);
  if (!parsed.success)
    throw new AppError('api.unexpected_response', 'The platform answered the dry-run in an unexpected form.');
  const result = parsed.data;
  const blockers = result.blockers.map((b) => ({
    code: b.code,
    phase: b.phase,
    message: b.message,
    retryable: b.retryable,
    text: blockerText(b),
  }));
  const admitted = result.accepted && blockers.length === 0;
  const admission: Record<string, unknown> = {
    decision: admitted ? 'admit' : 'reject',
    blockers,
    readUrlChecks: result.readUrlChecks ?? [],
  };
  if (result.estimatedCost)
    admission.estimatedCost = { ...result.estimatedCost, text: costText(result.estimatedCost) };
  if (!admitted)
    admission.reason =
      blockers.length > 0
        ? blockers.map((b) => b.text).join('; ')
        : 'The platform would not accept this job.';
  if (result.traceId) admission.traceId = result.traceId;
  return { admitted, admission, generatedAt: generatedAt.toISOString() };
}

/** Asks the runtime whether it would accept the job now, as the studio's admission view. */
export async function dryRunAdmission(
  runtime: RuntimeDryRun,
  body: Record<string, unknown>,
  now: () => Date = () => new Date(),
): Promise<AdmissionView> {
  return admissionViewOfDryRun(await runtime.dryRun(body), now());
}
