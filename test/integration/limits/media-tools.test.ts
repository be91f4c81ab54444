import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeMedia, readMediaFacts, runMediaTool } from '../../../src/main/core/media-tools/probe-media.js';
import { MediaResolver, mediaSignatureOf, mediaUrl } from '../../../src/main/core/library/media-resolver.js';
import { StagedFiles } from '../../../src/main/core/storage/staged-files.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { acceptedJobRow, journalWithProfile } from '../../support/journal-rows.js';
import { mediaFixtures } from '../../support/media-fixtures.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';

/**
 * ffmpeg and ffprobe run on downloaded bytes only after content sniffing, and only on local files:
 * an HLS playlist that points at a local listener never makes either open a connection.
 */

let listener: net.Server;
let connections = 0;
let playlist: string;
beforeAll(async () => {
  listener = net.createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const port = (listener.address() as net.AddressInfo).port;
  const dir = tempFolder('fw-hls-');
  playlist = path.join(dir, 'result.mp4'); // a server's "video", named as one
  writeFileSync(
    playlist,
    [
      '#EXTM3U',
      '#EXT-X-TARGETDURATION:10',
      `#EXT-X-KEY:METHOD=AES-128,URI="http://127.0.0.1:${port}/key.ts"`,
      '#EXTINF:10,',
      `http://127.0.0.1:${port}/segment.ts`,
      '#EXT-X-ENDLIST',
      '',
    ].join('\n'),
  );
});
afterAll(() => listener.close());

describe('media tools on downloaded bytes', () => {
  it('a playlist is not handed to ffprobe (not sniffed as media) and the listener gets no connection', async () => {
    await expect(readMediaFacts(playlist)).rejects.toMatchObject({ code: 'file.not_media' });
    await expect(probeMedia(playlist)).rejects.toMatchObject({ code: 'file.unknown_type' });
    await expect(
      runMediaTool('ffmpeg', playlist, ['-v', 'error', '-i', '{input}', '-f', 'null', '-']),
    ).rejects.toMatchObject({ code: 'file.not_media' });
    await new Promise((r) => setTimeout(r, 300));
    expect(connections).toBe(0);
  });

  it('a library result whose bytes are a playlist gets no poster (ffmpeg never runs); a real video does', async () => {
    const dataDir = tempFolder('fw-data-');
    const libraryDir = path.join(dataDir, 'library');
    mkdirSync(libraryDir, { recursive: true });
    const journal = journalWithProfile('http://127.0.0.1:1/v1');
    const job = acceptedJobRow(journal, { outputs: [{ assetId: 'hostile' }, { assetId: 'real' }] });
    const [hostile, real] = job.outputs;
    const place = (source: string, name: string) => {
      const target = path.join(libraryDir, name);
      copyFileSync(source, target);
      return target;
    };
    const verify = (id: number, localPath: string) =>
      journal.outputs.markVerified(id, {
        localPath,
        sha256: 'a'.repeat(64),
        byteSize: 1,
        mimeType: 'video/mp4', // what the server's Content-Type said
      });
    journal.outputs.markDownloading(hostile!.id, 'x');
    verify(hostile!.id, place(playlist, 'hostile.mp4'));
    journal.outputs.markDownloading(real!.id, 'y');
    verify(real!.id, place(mediaFixtures().refMp4, 'real.mp4'));
    const resolver = new MediaResolver({
      journal,
      libraryDirs: () => [libraryDir],
      staged: new StagedFiles(dataDir, journal),
    });
    // resolved as the page asks for them: through the signed URL the core hands out
    const resolveSigned = (route: string) =>
      resolver.resolve(route, mediaSignatureOf(new URL(mediaUrl(BROWSER_HOST, route), 'http://127.0.0.1')));
    expect(await resolveSigned(`library/${job.id}/${hostile!.id}`)).toMatchObject({
      mimeType: 'application/octet-stream',
    });
    expect(await resolveSigned(`library/${job.id}/${hostile!.id}/poster`)).toBeUndefined();
    expect(await resolveSigned(`library/${job.id}/${real!.id}/poster`)).toMatchObject({
      mimeType: 'image/png',
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(connections).toBe(0);
  });
});
