import { describe, expect, it } from 'vitest';
import {
  FRAMEWRIGHT_APP,
  FRAMEWRIGHT_ROLES,
  canonicalJson,
  framewrightSubmission,
  imageImportKeyOf,
  versionKeyOf,
} from '../../../../src/main/core/platform-release/framewright-submission.js';
import { normalizeSubmission } from '../../../../src/simulator/platform/developer/submissions.js';
import { SubmissionSchema } from '../../../../src/simulator/platform/developer/developer-schemas.js';

describe("Framewright's submission", () => {
  const submission = framewrightSubmission({ displayVersion: '1.2.3', releaseNotes: 'Notes' });

  it('declares the application, its dependency on storyboard-helper and its capability, not opened for online debugging (Framewright is no local debug provider)', () => {
    expect(submission).toMatchObject({
      appKey: 'framewright-studio',
      displayVersion: '1.2.3',
      entry: { component: 'backend' },
      components: [{ name: 'backend' }],
      dependencies: [
        {
          calleeAppKey: 'storyboard-helper',
          apiVersion: '2026-01',
          scopes: ['storyboard.read', 'storyboard.write'],
        },
      ],
      capabilities: [{ apiVersion: '2026-01', scopes: ['sequence.create'], onlineDebug: false }],
    });
    expect(FRAMEWRIGHT_APP).toMatchObject({
      appKey: 'framewright-studio',
      name: 'Framewright',
      resourceTypes: ['project'],
    });
    expect(FRAMEWRIGHT_ROLES.map((r) => r.roleCode)).toEqual([
      'studio_admin',
      'studio_editor',
      'studio_viewer',
    ]);
  });

  it("is the platform's accepted shape and already normalized (the source file equals it)", () => {
    expect(SubmissionSchema.safeParse(submission).success).toBe(true);
    expect(canonicalJson(normalizeSubmission(SubmissionSchema.parse(submission)))).toBe(
      canonicalJson({ schemaVersion: 1, ...submission }),
    );
  });

  it('derives one version key per normalized submission: the same twice, another for any change', () => {
    const again = framewrightSubmission({ displayVersion: '1.2.3', releaseNotes: 'Notes' });
    expect(versionKeyOf(again)).toBe(versionKeyOf(submission));
    expect(versionKeyOf({ ...submission, releaseNotes: 'Other' })).not.toBe(versionKeyOf(submission));
    // key order does not matter, values do
    expect(versionKeyOf(Object.fromEntries(Object.entries(submission).reverse()))).toBe(
      versionKeyOf(submission),
    );
    expect(versionKeyOf(submission)).toMatch(/^fw-version-[0-9a-f]{40}$/);
  });

  it("derives the image import key from the version and the archive's sha256 alone", () => {
    const sha = 'b'.repeat(64);
    expect(imageImportKeyOf('appver_1', sha)).toBe(imageImportKeyOf('appver_1', sha));
    expect(imageImportKeyOf('appver_2', sha)).not.toBe(imageImportKeyOf('appver_1', sha));
    expect(imageImportKeyOf('appver_1', 'c'.repeat(64))).not.toBe(imageImportKeyOf('appver_1', sha));
  });
});
