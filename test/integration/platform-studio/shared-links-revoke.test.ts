import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjectKeyOf } from '../../../src/main/core/platform/runtime-sessions/server-sessions.js';
import { signReadUrl } from '../../../src/main/core/storage/signed-read-url.js';
import { mediaFixtures } from '../../support/media-fixtures.js';
import { startStudioRig, type Page, type StudioRig } from './rig.js';

// A person ends every signed link (readUrl) to their files from Settings (`sharedLinks.revoke`):
// the backend refuses their links at once, and nobody else's.

let rig: StudioRig;
beforeAll(async () => {
  rig = await startStudioRig();
});
afterAll(async () => {
  await rig?.close();
});

/** A readUrl of one of `page`'s objects, as the backend signs them for the platform, valid 8 days. */
async function readUrlOf(page: Page): Promise<string> {
  const subjectKey = subjectKeyOf((await rig.sessionOf(page)).subject);
  const stored = await rig.backend.storageFor(subjectKey)!.putFile(mediaFixtures().firstPng);
  return signReadUrl(rig.backend.signingKey, {
    publicOrigin: rig.origin,
    subjectKey,
    sha256: stored.sha256,
    expiresAt: new Date(Date.now() + 8 * 24 * 3600 * 1000),
  });
}

describe('shared links on the platform', () => {
  it('a person’s revocation refuses every link of theirs at once; another person’s still read; new ones work', async () => {
    const member = await rig.open('member');
    const other = await rig.open('personal');
    const members = await readUrlOf(member);
    const others = await readUrlOf(other);
    expect((await fetch(members)).status).toBe(200);
    expect((await fetch(others)).status).toBe(200);

    const answer = await member.invoke('sharedLinks.revoke', {});
    expect(answer.ok).toBe(true);

    expect((await fetch(members)).status).toBe(403);
    expect((await fetch(others)).status).toBe(200);
    expect((await fetch(await readUrlOf(member))).status).toBe(200);
  });
});
