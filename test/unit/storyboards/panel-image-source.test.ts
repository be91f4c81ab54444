/**
 * A board's panel image addresses are someone else's data: the backend reads them only at
 * Storyboard Helper's configured origin and image path, follows no redirect, and (where other
 * origins are allowed at all, on a desktop) never an address of this machine or a private network.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../../src/main/core/api-clients/outbound-address.js';
import {
  checkPanelImageAddress,
  downloadPanelImage,
  panelImagePathPrefix,
  type PanelImageSource,
} from '../../../src/main/core/storyboards/panel-image.js';

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(24, 7),
]);
const image = (url: string) => ({
  url,
  mimeType: 'image/png',
  byteSize: PNG.length,
  sha256: createHash('sha256').update(PNG).digest('hex'),
});

/** A loopback server that records every request it gets. */
async function recordingServer(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { hits, origin, close: () => new Promise<void>((r) => server.close(() => r())) };
}

let helper: Awaited<ReturnType<typeof recordingServer>>;
let internal: Awaited<ReturnType<typeof recordingServer>>;
let platform: PanelImageSource;

beforeAll(async () => {
  internal = await recordingServer((_req, res) => res.end('internal secret'));
  helper = await recordingServer((req, res) => {
    if (req.url?.startsWith('/apps/sb/images/redirect')) {
      res.writeHead(302, { Location: `${internal.origin}/admin` });
      return res.end();
    }
    res.writeHead(200, { 'Content-Type': 'image/png' });
    res.end(PNG);
  });
  platform = {
    helperOrigin: helper.origin,
    imagePathPrefix: panelImagePathPrefix(`${helper.origin}/apps/sb`),
    otherPublicOrigins: false,
  };
});
afterAll(async () => {
  await helper.close();
  await internal.close();
});

describe('where a panel image is read from', () => {
  it("reads an image at the helper's origin and image path, verified", async () => {
    const bytes = await downloadPanelImage(
      image(`${helper.origin}/apps/sb/images/p1.png?sig=1`),
      'panel 1',
      platform,
    );
    expect(bytes.equals(PNG)).toBe(true);
  });

  it('on the platform: never another origin, even a loopback port; nothing is contacted', async () => {
    await expect(
      downloadPanelImage(image(`${internal.origin}/images/p1.png`), 'panel 1', platform),
    ).rejects.toThrow(/not at Storyboard Helper's address/);
    await expect(
      downloadPanelImage(image('http://169.254.169.254/latest/meta-data/'), 'panel 1', platform),
    ).rejects.toThrow(/not read/);
    expect(internal.hits).toEqual([]);
  });

  it("at the helper's origin, only its image path", async () => {
    const before = helper.hits.length;
    await expect(
      downloadPanelImage(image(`${helper.origin}/inter-app/admin`), 'panel 1', platform),
    ).rejects.toThrow(/not one of Storyboard Helper's panel images/);
    expect(helper.hits.length).toBe(before);
  });

  it('follows no redirect: a helper answer pointing elsewhere is refused, and the other address is never read', async () => {
    await expect(
      downloadPanelImage(image(`${helper.origin}/apps/sb/images/redirect.png`), 'panel 1', platform),
    ).rejects.toThrow(/HTTP 302/);
    expect(internal.hits).toEqual([]);
  });

  it('on a desktop (other public origins allowed): this machine, private networks and *.localhost are refused', async () => {
    const desktop: PanelImageSource = {
      helperOrigin: 'https://helper.example',
      imagePathPrefix: '/',
      otherPublicOrigins: true,
    };
    for (const url of [
      `${internal.origin}/images/p.png`,
      'http://localhost:9/p.png',
      'http://anything.localhost/p.png',
      'http://10.1.2.3/p.png',
      'http://[::1]:9/p.png',
      'http://[::ffff:127.0.0.1]:9/p.png',
      'http://192.168.1.1/p.png',
      'http://169.254.169.254/p.png',
      'file:///etc/passwd',
      'http://user:pw@8.8.8.8/p.png',
    ])
      await expect(checkPanelImageAddress(url, desktop, 'panel 1'), url).rejects.toThrow(/not read/);
    expect(internal.hits).toEqual([]);
    // a public literal address passes the check (nothing is fetched here)
    expect((await checkPanelImageAddress('http://8.8.8.8/p.png', desktop, 'panel 1')).hostname).toBe(
      '8.8.8.8',
    );
  });

  it('classifies addresses: public or not', () => {
    for (const a of ['8.8.8.8', '2606:4700::1111', '1.1.1.1']) expect(isPublicAddress(a), a).toBe(true);
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '172.20.1.1',
      '192.168.0.1',
      '169.254.1.1',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      'not-an-ip',
    ])
      expect(isPublicAddress(a), a).toBe(false);
  });
});
