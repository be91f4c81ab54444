import type { z } from 'zod';
import { AppError } from '../../errors.js';
import { formatScaled, rawAmount } from '../../api-clients/runtime/credit-amounts.js';
import {
  DryRunAnswer,
  type DryRunBlocker,
  type DryRunEstimatedCost,
} from '../../api-clients/runtime/runtime-schemas.js';

/** The one runtime call this needs (lane runtime-jobs' client provides it). */
export interface RuntimeDryRun {
  /** `POST {runtime}/media/jobs:dry-run` with the job-creation body; the 200 answer. */
  dryRun(body: Record<string, unknown>): Promise<unknown>;
}

type EstimatedCost = z.infer<typeof DryRunEstimatedCost>;
type Blocker = z.infer<typeof DryRunBlocker>;

/** The bridge's `video.admission` result. */
export interface AdmissionView {
  admitted: boolean | null;
  admission: Record<string, unknown>;
  generatedAt: string;
}

/**
 * "7.50 CREDIT for 5 seconds": an integer amount scaled by `amountScale` (default 0); a decimal
 * amount (`7.5`, `"7.50"`) is already in units and shown as written; with its unit.
 */
export function costText(cost: EstimatedCost): string {
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
export function blockerText(b: Blocker): string {
  return `${b.message} (${b.phase.replace(/_/g, ' ')})`;
}

/**
 * Maps a runtime dry-run result onto the studio's admission view: `admitted` is `accepted`; the
 * view's `reason` (what Create shows, and why Generate is disabled) lists every blocker's message
 * and phase; `estimatedCost` carries the scaled amount as text next to the raw figures; the
 * blockers and the `readUrl` checks are kept for the details.
 */
export function admissionViewOfDryRun(raw: unknown, generatedAt: Date = new Date()): AdmissionView {
  // the runtime client's one schema of the spec's dry-run result
  const parsed = DryRunAnswer.safeParse(raw);
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
