import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filmAddresses } from '../../../src/main/core/app/desktop-storyboards.js';
import {
  isLoopbackAddress,
  LocalObjectShare,
  shareSubjectKey,
} from '../../../src/main/core/storage/local-object-share.js';
import { MemorySecretStore } from '../../support/memory-secret-store.js';
import { getWithHost } from '../../support/request-with-host.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const shares: LocalObjectShare[] = [];
afterEach(async () => {
  await Promise.all(shares.splice(0).map((s) => s.close()));
});

function shareIn(dir: string, env: NodeJS.ProcessEnv = {}) {
  const share = new LocalObjectShare({
    root: path.join(dir, 'shared-objects'),
    secrets: new MemorySecretStore(),
    subjectKey: shareSubjectKey(dir),
    env,
  });
  shares.push(share);
  return share;
}

const inADay = () => new Date(Date.now() + 24 * 3600_000);

describe('the local share of sent films', () => {
  it('serves a stored file to its signed address only, until it expires', async () => {
    const dir = tempFolder('fw-share-');
    const file = path.join(dir, 'film.mp4');
    writeFileSync(file, Buffer.from('a film of a few bytes'));
    const share = shareIn(dir);
    const stored = await share.putFile(file);
    const url = new URL(await share.readUrlFor(stored.sha256, inADay()));
    expect(isLoopbackAddress(url.href)).toBe(true);
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    expect(createHash('sha256').update(body).digest('hex')).toBe(stored.sha256);

    const forged = new URL(url);
    forged.searchParams.set('sig', 'f'.repeat(64));
    expect((await fetch(forged)).status).toBe(403);
    const expired = new URL(await share.readUrlFor(stored.sha256, new Date(Date.now() - 1000)));
    expect((await fetch(expired)).status).toBe(403);
    // only a request addressed to the share (a DNS-rebinding page names another host)
    expect(await getWithHost(url.href, 'films.attacker.example')).toBe(421);
    expect(await getWithHost(url.href, `localhost:${url.port}`)).toBe(200);
    // nothing but GET and HEAD of a signed object
    expect((await fetch(url, { method: 'POST' })).status).toBe(405);
    expect((await fetch(new URL('/', url))).status).toBe(404);
  });

  it('ends every address it signed at once when the person revokes their shared links; new ones work', async () => {
    const dir = tempFolder('fw-share-');
    const file = path.join(dir, 'film.mp4');
    writeFileSync(file, Buffer.from('a film sent to a board'));
    const share = shareIn(dir);
    const stored = await share.putFile(file);
    const sent = new URL(await share.readUrlFor(stored.sha256, inADay()));
    expect((await fetch(sent)).status).toBe(200);
    await share.revokeAll();
    expect((await fetch(sent)).status).toBe(403);
    expect((await fetch(new URL(await share.readUrlFor(stored.sha256, inADay())))).status).toBe(200);
  });

  it('signs for the public address FRAMEWRIGHT_SHARE_ORIGIN names, and refuses one with a path', async () => {
    const dir = tempFolder('fw-share-');
    const share = shareIn(dir, { FRAMEWRIGHT_SHARE_ORIGIN: 'https://films.example.net' });
    const url = await share.readUrlFor('a'.repeat(64), inADay());
    expect(url.startsWith('https://films.example.net/objects/')).toBe(true);
    await expect(
      shareIn(dir, { FRAMEWRIGHT_SHARE_ORIGIN: 'https://films.example.net/share' }).readUrlFor(
        'a'.repeat(64),
        inADay(),
      ),
    ).rejects.toMatchObject({ code: 'storyboards.share_origin_invalid' });
  });

  it('gives a loopback address only to a callee on this computer', async () => {
    const dir = tempFolder('fw-share-');
    const loopback = shareIn(dir);
    await expect(filmAddresses(loopback, false)('b'.repeat(64), inADay())).rejects.toMatchObject({
      code: 'storyboards.film_unreachable',
    });
    expect(isLoopbackAddress(await filmAddresses(loopback, true)('b'.repeat(64), inADay()))).toBe(true);
    const published = shareIn(dir, { FRAMEWRIGHT_SHARE_ORIGIN: 'https://films.example.net' });
    expect(await filmAddresses(published, false)('b'.repeat(64), inADay())).toMatch(
      /^https:\/\/films\.example\.net\/objects\//,
    );
  });
});
