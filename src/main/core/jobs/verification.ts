import type { Output } from '../journal/outputs-repository.js';

/**
 * What a stored result's check proved: `verified` when the job announced both `sha256` and
 * `byteSize` and the bytes matched them; `not_verifiable` when it announced less (the bytes were
 * stored, but nothing proves they are the result); null while the result is not stored.
 */
export type Verification = 'verified' | 'not_verifiable';

/** Why a stored result is `not_verifiable`, in the words the CLI prints (the studio's hint says the same). */
export const NOT_VERIFIABLE_REASON =
  'the service announced no sha256 and byte size for this result, so the stored bytes could not be checked against them';

export function verificationOf(
  output: Pick<Output, 'downloadState' | 'expectedSha256' | 'expectedByteSize'>,
): Verification | null {
  if (output.downloadState !== 'verified') return null;
  return output.expectedSha256 && output.expectedByteSize !== undefined ? 'verified' : 'not_verifiable';
}
