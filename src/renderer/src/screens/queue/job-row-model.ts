import type { JobView } from '../../../../shared/bridge/contract';
import type { DownloadProgress } from '../../store/queue-slice';

/**
 * The bar of a Queue row: a percentage (null: indeterminate) and whether the job is done with.
 * A succeeded job whose every output is stored is full (100), whatever its last download event
 * said; a download in progress is its fraction; a queued job shows a sliver.
 */
export function jobProgress(
  job: Pick<JobView, 'status' | 'outputs'>,
  downloads: Readonly<Record<number, DownloadProgress | undefined>>,
): { value: number | null; complete: boolean } {
  const outputs = job.outputs;
  const stored = outputs.length > 0 && outputs.every((o) => o.verified);
  if (job.status === 'succeeded' && stored) return { value: 100, complete: true };
  const first = outputs[0];
  if (first?.verified && outputs.length === 1) return { value: 100, complete: true };
  const progress = first ? downloads[first.id] : undefined;
  if (progress?.totalBytes)
    return {
      value: Math.min(100, Math.round((progress.receivedBytes / progress.totalBytes) * 100)),
      complete: false,
    };
  if (job.status === 'queued') return { value: 5, complete: false };
  return { value: null, complete: false };
}

/** The parts of a row's second line that are known, joined by " · " (an empty one leaves no separator). */
export function jobMetaLine(parts: readonly (string | null | undefined)[]): string {
  return parts
    .filter((part): part is string => typeof part === 'string' && part.trim().length > 0)
    .join(' · ');
}
