import type { CorePartsOptions } from '../main/core/app/core-parts.js';

/**
 * Test-only crash points for the crash tests (test/integration/crash/): with
 * `FRAMEWRIGHT_TEST_CRASH_AT` set, the CLI kills itself with SIGKILL at that moment, exactly as a
 * power cut or a force-quit would. Never set in normal use.
 *  - `after-intent`: the intent is committed, the create request has not left;
 *  - `while-polling`: the job was accepted and polled once, not finished;
 *  - `mid-download`: bytes of a result are in the temporary file, not verified.
 */
export function crashPointHooks(env: NodeJS.ProcessEnv = process.env): CorePartsOptions['engine'] {
  const at = env.FRAMEWRIGHT_TEST_CRASH_AT;
  if (!at) return undefined;
  const die = () => process.kill(process.pid, 'SIGKILL');
  switch (at) {
    case 'after-intent':
      return { create: { beforeSend: die } };
    case 'while-polling':
      return {
        hooks: {
          afterPoll: (job) => (job.status === 'queued' || job.status === 'running' ? die() : undefined),
        },
      };
    case 'mid-download':
      return { download: { afterPartialWrite: die } };
    case 'after-image-part-1':
    case 'after-image-part-2':
    case 'after-image-part-3':
      return undefined; // `platform release` (releaseCrashHook)
    default:
      throw new Error(`Unknown FRAMEWRIGHT_TEST_CRASH_AT "${at}".`);
  }
}

/**
 * `platform release`'s crash point: with `FRAMEWRIGHT_TEST_CRASH_AT=after-image-part-N` the CLI
 * kills itself with SIGKILL once part N's ETag is in the journal (before the next part leaves).
 */
export function releaseCrashHook(
  env: NodeJS.ProcessEnv = process.env,
): ((partNumber: number) => void) | undefined {
  const m = /^after-image-part-(\d+)$/.exec(env.FRAMEWRIGHT_TEST_CRASH_AT ?? '');
  if (!m) return undefined;
  const at = Number(m[1]);
  return (partNumber) => {
    if (partNumber === at) process.kill(process.pid, 'SIGKILL');
  };
}
