import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { canonicalJson } from '../http.js';

/**
 * Content-addressed output files: the same render plan (request, seed and input checksums)
 * always maps to the same file, rendered once even when asked concurrently.
 */
export class RenderCache {
  private readonly inFlight = new Map<string, Promise<string>>();
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  /** @param concurrency renders running at once (the others wait their turn). */
  constructor(
    private readonly dir: string,
    private readonly concurrency = Math.max(2, os.availableParallelism()),
  ) {}

  private async slot<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active += 1;
    try {
      return await fn();
    } finally {
      this.active -= 1;
      this.waiting.shift()?.();
    }
  }

  static keyOf(plan: unknown): string {
    return createHash('sha256').update(canonicalJson(plan)).digest('hex').slice(0, 32);
  }

  async produce(key: string, extension: string, render: (outPath: string) => Promise<void>): Promise<string> {
    const finalPath = path.join(this.dir, `${key}${extension}`);
    if (existsSync(finalPath)) return finalPath;
    const pending = this.inFlight.get(finalPath);
    if (pending) return pending;
    const work = (async () => {
      await mkdir(this.dir, { recursive: true });
      const tmpPath = path.join(this.dir, `${key}.${process.pid}.${Date.now()}.tmp${extension}`);
      try {
        await this.slot(() => render(tmpPath));
        await rename(tmpPath, finalPath);
        return finalPath;
      } catch (error) {
        await rm(tmpPath, { force: true });
        throw error;
      } finally {
        this.inFlight.delete(finalPath);
      }
    })();
    this.inFlight.set(finalPath, work);
    return work;
  }
}
