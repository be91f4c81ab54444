import type { StateCreator } from 'zustand';
import type { JobView } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import type { StudioState } from './index';

export interface DownloadProgress {
  receivedBytes: number;
  totalBytes: number | null;
}

/** The queue: every job of every profile, kept live by the core's events, and result downloads. */
export interface QueueSlice {
  /** Jobs by journal row id, and their order (newest first). */
  jobs: Record<number, JobView>;
  jobOrder: number[];
  jobsCursor: string | null;
  jobsLoaded: boolean;
  downloads: Record<number, DownloadProgress>;
  loadJobs(more?: boolean): Promise<void>;
  receiveJob(job: JobView): void;
  receiveDownload(outputId: number, progress: DownloadProgress): void;
}

export const createQueueSlice: StateCreator<StudioState, [], [], QueueSlice> = (set, get) => ({
  jobs: {},
  jobOrder: [],
  jobsCursor: null,
  jobsLoaded: false,
  downloads: {},

  async loadJobs(more = false) {
    const cursor = more ? get().jobsCursor : null;
    if (more && !cursor) return;
    const page = await bridge.invoke('jobs.list', { limit: 200, ...(cursor ? { cursor } : {}) });
    const jobs = more ? { ...get().jobs } : {};
    const order = more ? [...get().jobOrder] : [];
    for (const job of page.items) {
      if (!(job.rowId in jobs)) order.push(job.rowId);
      jobs[job.rowId] = job;
    }
    set({ jobs, jobOrder: order, jobsCursor: page.nextCursor, jobsLoaded: true });
  },

  receiveJob(job) {
    const jobs = { ...get().jobs, [job.rowId]: job };
    const order = get().jobOrder.includes(job.rowId)
      ? get().jobOrder
      : [job.rowId, ...get().jobOrder].sort((a, b) => b - a);
    set({ jobs, jobOrder: order });
  },

  receiveDownload(outputId, progress) {
    set({ downloads: { ...get().downloads, [outputId]: progress } });
  },
});
