import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudioRig, type Page, type StudioRig } from './rig.js';
import { PLATFORM_T2V_FORM } from '../../support/worlds/platform-world.js';

/**
 * What a person causes to be stored counts in their quota (issue 37): the results downloaded into
 * their library, their drafts in the journal, and the films they render — a render that would pass
 * the quota is refused before any work starts, so a flood of cross-fades cannot fill the disk.
 */

const QUOTA_BYTES = 6 * 1024 * 1024;
let rig: StudioRig;

beforeAll(async () => {
  rig = await startStudioRig({ limits: { storageBytes: QUOTA_BYTES, storageFiles: 1000 } });
});
afterAll(async () => {
  await rig?.close();
});

interface Sequence {
  sequenceId: string;
  shots: { mediaUrl: string | null }[];
  assembly: { state: string } | null;
}

async function workspaceOf(page: Page) {
  const session = await rig.sessionOf(page);
  return rig.backend.workspaces.workspaceOf(session.subject);
}

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !e.parentPath.includes('.posters'))
      .map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

async function until(page: Page, sequenceId: string, done: (s: Sequence) => boolean): Promise<Sequence> {
  const end = Date.now() + 60_000;
  for (;;) {
    const view = await page.call<Sequence>('sequences.get', { sequenceId });
    if (done(view)) return view;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('the quota counts the library and drafts; a render past it is refused before it starts', () => {
  it('counts a downloaded shot and drafts, then refuses an assembly that would pass the quota', async () => {
    const member = await rig.open('member');
    let view = await member.call<Sequence>('sequences.create', { name: 'Lighthouse' });
    const { sequenceId } = view;
    await member.call('sequences.addShot', { sequenceId, form: PLATFORM_T2V_FORM });
    await member.call('sequences.generate', { sequenceId });
    view = await until(member, sequenceId, (s) => s.shots.every((shot) => shot.mediaUrl !== null));

    const workspace = await workspaceOf(member);
    const libraryDir = path.join(workspace.dir, 'library');
    const shotBytes = filesUnder(libraryDir)
      .filter((file) => file.endsWith('.mp4'))
      .reduce((sum, file) => sum + statSync(file).size, 0);
    expect(shotBytes).toBeGreaterThan(0);
    // the shot downloaded into the library counts, and so do the drafts in the journal
    const draftBytes = () => workspace.journal.drafts.totals().bytes;
    expect(workspace.core.usage().usedBytes).toBeGreaterThanOrEqual(shotBytes + draftBytes());

    // drafts fill the quota until less than the shot's size is left
    const free = () => QUOTA_BYTES - workspace.core.usage().usedBytes;
    while (free() >= shotBytes) {
      const prompt = 'x'.repeat(Math.min(190_000, Math.max(1000, free() - Math.floor(shotBytes / 2) - 2000)));
      await member.call('drafts.create', { form: { ...PLATFORM_T2V_FORM, prompt } });
    }
    expect(workspace.core.usage().usedBytes).toBeGreaterThanOrEqual(shotBytes + draftBytes());

    // the film would be about the shot's size: refused at once, nothing rendered, nothing recorded
    await expect(member.call('sequences.assemble', { sequenceId, crossfadeSeconds: 0.5 })).rejects.toThrow(
      /quota\.exceeded/,
    );
    expect(filesUnder(path.join(libraryDir, 'sequences'))).toEqual([]);
    expect((await member.call<Sequence>('sequences.get', { sequenceId })).assembly).toBeNull();
    // drafts past what is left are refused too, with the same error, and the usage stays within the quota
    let refused: unknown;
    for (let i = 0; i < 30 && refused === undefined; i += 1)
      refused = await member
        .call('drafts.create', { form: { ...PLATFORM_T2V_FORM, prompt: 'y'.repeat(190_000) } })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
    expect(String(refused)).toMatch(/quota\.exceeded/);
    expect(workspace.core.usage().usedBytes).toBeLessThanOrEqual(QUOTA_BYTES);
  });
});
