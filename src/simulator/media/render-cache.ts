import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { canonicalJson } from '../http.js';

/**
 * Content-addressed output files: the same render plan (request, seed and input checksums)
 * always maps to the same file, rendered once even when asked concurrently.
 */
export class RenderCache {
  private readonly inFlight = new Map<string, Promise<string>>();

  constructor(private readonly dir: string) {}

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
        await render(tmpPath);
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
