import type { SecretStore } from './secret-store.js';

/** The secret-store name of a job's recovery reference (design14.md: `job-recovery-ref:<job id>`). */
export const recoveryRefName = (jobKey: string): string => `job-recovery-ref:${jobKey}`;

/**
 * Per-job recovery references (`jobRecoveryRef`, application-platform-api.md "RuntimeJob"), kept
 * only in the secret store: stored at creation, never overwritten with an empty value (reads do not
 * guarantee to resend it), never logged, never in the journal.
 */
export class RecoveryRefs {
  constructor(private readonly store: SecretStore) {}

  /** Keeps the reference of a job; an empty or absent one leaves what is stored untouched. */
  async remember(jobKey: string, recoveryRef: string | undefined | null): Promise<void> {
    if (!recoveryRef || recoveryRef.trim().length === 0) return;
    const name = recoveryRefName(jobKey);
    if ((await this.store.get(name)) === recoveryRef) return;
    await this.store.set(name, recoveryRef);
  }

  /** The stored reference of a job, or undefined. */
  recall(jobKey: string): Promise<string | undefined> {
    return this.store.get(recoveryRefName(jobKey));
  }

  /** Removes a reference once its job and results are finished with. */
  forget(jobKey: string): Promise<boolean> {
    return this.store.delete(recoveryRefName(jobKey));
  }
}
