import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import { defaultSimulatorLauncher } from '../../../src/main/core/app/default-simulator-launcher.js';
import type { DraftForm, ServicesList } from '../../../src/shared/bridge/contract.js';
import { mediaSignatureOf, mediaUrl } from '../../../src/main/core/library/media-resolver.js';
import { MemorySecretStore } from '../../unit/secrets/fakes.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

let core: AppCore;
let dataDir: string;
let elsewhere: string;

interface Settings {
  waitSeconds: number;
  libraryDir: string;
}

async function call<T = unknown>(method: string, params: unknown): Promise<T> {
  const response = await core.dispatcher.dispatch(method, params);
  if (!response.ok) throw Object.assign(new Error(response.error.message), response.error);
  return response.result as T;
}

async function waitFor<T>(read: () => T | undefined | Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Generates one t2v result and waits until its output is verified; returns its media route. */
async function generate(prompt: string): Promise<string> {
  const list = await call<ServicesList>('services.list', { serviceKind: 'video_generation' });
  const service = list.services.find((s) => s.available)!;
  const form: DraftForm = {
    profileId: 'simulator',
    model: service.modelAlias,
    generationMode: 't2v',
    prompt,
    orientation: 'landscape',
    seconds: 5,
    resolutionTier: '768p',
    seed: 3,
    references: [],
  };
  const draft = await call<{ id: string }>('drafts.create', { form });
  const submitted = await call<{ jobRowId: number | null }>('video.submit', { draftId: draft.id });
  const jobRowId = await waitFor(async () => {
    if (submitted.jobRowId !== null) return submitted.jobRowId;
    return (
      (await call<{ jobRowId: number | null }>('drafts.get', { draftId: draft.id })).jobRowId ?? undefined
    );
  });
  const done = await waitFor(async () => {
    const job = await call<{ outputs: { verified: boolean; mediaUrl: string | null }[] }>('jobs.get', {
      jobRowId,
    });
    return job.outputs.find((o) => o.verified)?.mediaUrl ?? undefined;
  });
  return new URL(done, 'http://host.invalid').pathname.slice('/media/'.length);
}

/** Resolves a library route as the media URL the core signs for it. */
function resolveMedia(route: string) {
  return core.studio.media.resolve(
    route,
    mediaSignatureOf(new URL(mediaUrl(BROWSER_HOST, route), 'http://host.invalid')),
  );
}

beforeAll(async () => {
  dataDir = tempFolder('fw-libdir-');
  elsewhere = tempFolder('fw-libdir-new-');
  core = await createAppCore({
    dataDir,
    host: BROWSER_HOST,
    launchSimulator: defaultSimulatorLauncher(dataDir, 0.02),
    secretStore: new MemorySecretStore(),
    resumeOnStart: false,
  });
});

afterAll(async () => {
  await core?.close();
});

describe('the library folder is a setting', () => {
  it('refuses an invalid folder with a clear error and changes nothing', async () => {
    const before = await call<Settings>('studio.settings.get', {});
    const aFile = path.join(elsewhere, 'a-file.txt');
    writeFileSync(aFile, 'not a folder');
    const refused = ['relative/library', aFile, path.join(aFile, 'below-a-file')];
    for (const libraryDir of refused) {
      await expect(call('studio.settings.update', { libraryDir, waitSeconds: 600 })).rejects.toMatchObject({
        code: 'settings.library_dir_invalid',
        message: expect.stringContaining(libraryDir) as unknown,
      });
    }
    await expect(call('studio.settings.update', { libraryDir: 'relative' })).rejects.toThrow(
      /not an absolute path/,
    );
    // nothing changed: neither the folder nor the wait limit sent along with it
    expect(await call<Settings>('studio.settings.get', {})).toEqual(before);
    expect(core.services.journal.settings.get('studio.libraryDir')).toBeUndefined();
  });

  it('new downloads go to the new folder; earlier results keep playing from the old one', async () => {
    const first = await generate('A harbour at dawn, boats leaving');
    const old = await resolveMedia(first);
    const defaultDir = realpathSync(path.join(dataDir, 'library'));
    expect(old?.path.startsWith(defaultDir + path.sep)).toBe(true);

    // a folder that does not exist yet is created
    const target = path.join(elsewhere, 'nested', 'Library');
    const updated = await call<Settings>('studio.settings.update', { libraryDir: target });
    expect(updated.libraryDir).toBe(target);
    expect(existsSync(target)).toBe(true);
    expect((await call<Settings>('studio.settings.get', {})).libraryDir).toBe(target);
    // persisted in the journal
    expect(core.services.journal.settings.get('studio.libraryDir')).toBe(target);

    const second = await generate('A lighthouse in fog, slow pan');
    const fresh = await resolveMedia(second);
    expect(fresh?.mimeType).toBe('video/mp4');
    expect(fresh?.path.startsWith(realpathSync(target) + path.sep)).toBe(true);
    expect((await resolveMedia(`${second}/poster`))?.mimeType).toBe('image/png');

    // the earlier result still plays from the old folder
    const again = await resolveMedia(first);
    expect(again?.path).toBe(old?.path);

    // still never a path outside the library folders, even from a verified row
    const [, jobRowId, outputId] = second.split('/');
    const outside = path.join(elsewhere, 'outside.mp4');
    writeFileSync(outside, 'x');
    core.services.journal.database
      .prepare('UPDATE outputs SET local_path = ? WHERE id = ?')
      .run(outside, Number(outputId));
    expect(await resolveMedia(`library/${jobRowId}/${outputId}`)).toBeUndefined();
    // nor an output of another job, nor an unknown output
    expect(await resolveMedia(`library/${jobRowId}/999999`)).toBeUndefined();
  });
});
