import type { JobView } from '../../../../shared/bridge/contract';

/** One line of the Queue: a job alone, or the jobs of one "Generate ×N" under one header. */
export type QueueEntry =
  | { kind: 'job'; job: JobView }
  | { kind: 'group'; groupId: string; count: number; prompt: string; jobs: JobView[] };

/**
 * The Queue's lines in its order (newest first): the jobs of a variation group together, by their
 * index, where the group's newest job is; every other job on its own.
 */
export function queueEntries(
  order: readonly number[],
  jobs: Readonly<Record<number, JobView>>,
): QueueEntry[] {
  const members = new Map<string, JobView[]>();
  for (const rowId of order) {
    const job = jobs[rowId];
    if (!job?.variation) continue;
    const list = members.get(job.variation.groupId) ?? [];
    list.push(job);
    members.set(job.variation.groupId, list);
  }
  const entries: QueueEntry[] = [];
  const placed = new Set<string>();
  for (const rowId of order) {
    const job = jobs[rowId];
    if (!job) continue;
    const variation = job.variation;
    if (!variation) {
      entries.push({ kind: 'job', job });
      continue;
    }
    if (placed.has(variation.groupId)) continue;
    placed.add(variation.groupId);
    const group = [...members.get(variation.groupId)!].sort(
      (a, b) => a.variation!.index - b.variation!.index,
    );
    entries.push({
      kind: 'group',
      groupId: variation.groupId,
      count: variation.count,
      prompt: group[0]!.prompt,
      jobs: group,
    });
  }
  return entries;
}
