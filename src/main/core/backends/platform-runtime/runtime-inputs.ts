import type { EffectiveLimits } from '../../../../shared/h3/effective-limits.js';
import { AppError } from '../../errors.js';
import type { RuntimeInputRole } from '../../jobs/runtime-job-body.js';
import { assertDraftValid, inputsToSend, type LocalVideoDraft } from '../../creating/submit-video.js';
import type { ObjectStorage } from '../../storage/object-storage.js';
import { signReadUrl, type ReadUrlKey } from '../../storage/signed-read-url.js';

/**
 * How long a `readUrl` of a job input stays readable: 7 days. Creation needs the person's
 * session, and a session never lives past 7 days after its first exchange, so every replay of a
 * creation whose outcome was unknown (same body, hence the same URL) falls within it; so does
 * the platform's processing of the job.
 */
export const INPUT_READ_URL_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

/** A runtime `inputs[]` item (spec: "Runtime job input"). */
export interface RuntimeInput {
  readUrl: string;
  role: RuntimeInputRole;
  mimeType: string;
  sha256: string;
  byteSize: number;
  /** ISO date-time after which `readUrl` is refused. */
  expiresAt: string;
}

export interface RuntimeInputsDeps {
  /** The subject's own object storage. */
  storage: ObjectStorage;
  signingKey: ReadUrlKey;
  /** `FRAMEWRIGHT_PUBLIC_URL`'s origin: where the platform reads the objects. */
  publicOrigin: string;
  subjectKey: string;
  now?: () => Date;
  lifetimeSeconds?: number;
}

/**
 * A draft's input files as runtime `inputs[]`: the H3 rules of the live contract are checked
 * first (exactly as for the public interface: nothing is stored when they fail), then each file
 * the mode sends is stored in the subject's storage and named by a signed, expiring `readUrl`.
 * A file whose bytes changed since it was probed is refused (its checks would no longer hold).
 */
export async function runtimeInputsOf(
  draft: LocalVideoDraft,
  limits: EffectiveLimits,
  deps: RuntimeInputsDeps,
): Promise<RuntimeInput[]> {
  assertDraftValid(draft, limits);
  const items: RuntimeInput[] = [];
  for (const { file, role } of inputsToSend(draft, limits))
    items.push(await runtimeInputOf(file, role, deps));
  return items;
}

/**
 * One checked input file as a runtime input: stored in the subject's storage and named by a
 * signed, expiring `readUrl`. A file whose bytes changed since it was probed is refused.
 */
export async function runtimeInputOf(
  file: { path: string; fileName: string; sha256?: string },
  role: RuntimeInputRole,
  deps: RuntimeInputsDeps,
): Promise<RuntimeInput> {
  const now = (deps.now ?? (() => new Date()))();
  const expiresAt = new Date(
    (Math.floor(now.getTime() / 1000) + (deps.lifetimeSeconds ?? INPUT_READ_URL_LIFETIME_SECONDS)) * 1000,
  );
  const stored = await deps.storage.putFile(file.path);
  if (file.sha256 && file.sha256 !== stored.sha256)
    throw new AppError(
      'file.unreadable',
      `${file.fileName} changed after it was checked; add it to the draft again.`,
    );
  return {
    readUrl: signReadUrl(deps.signingKey, {
      publicOrigin: deps.publicOrigin,
      subjectKey: deps.subjectKey,
      sha256: stored.sha256,
      expiresAt,
    }),
    role,
    mimeType: stored.mimeType,
    sha256: stored.sha256,
    byteSize: stored.byteSize,
    expiresAt: expiresAt.toISOString(),
  };
}
