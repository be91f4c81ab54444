import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { whenDone } from './cleanup.js';

/** A fresh folder under the system's temp folder, removed (with everything in it) when done. */
export function tempFolder(prefix = 'fw-test-'): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), prefix));
  whenDone(() => rmSync(folder, { recursive: true, force: true }));
  return folder;
}
