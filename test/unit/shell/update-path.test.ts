import {
  createServer,
  request,
  type ClientRequest,
  type IncomingMessage,
  type RequestOptions,
  type Server,
} from 'node:http';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { HttpExecutor } from 'builder-util-runtime';
import { DebUpdater } from 'electron-updater';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openJournal } from '../../../src/main/core/journal/open-journal.js';
import {
  createUpdater,
  electronUpdaterFolders,
  startUpdatesIfAllowed,
  updaterAppAdapter,
} from '../../../src/main/shell/updater.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

/** electron-updater's HTTP client over Node's http (Electron's `net` is not available here). */
class NodeHttpExecutor extends HttpExecutor<ClientRequest> {
  createRequest(options: RequestOptions, callback: (response: IncomingMessage) => void): ClientRequest {
    return request(options, callback);
  }
}

/** Every file and folder under `root` with its size and modification time. */
function snapshot(root: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      const stat = statSync(full);
      entries[path.relative(root, full)] = `${stat.isDirectory() ? 'dir' : stat.size}@${stat.mtimeMs}`;
      if (stat.isDirectory()) walk(full);
    }
  };
  walk(root);
  return entries;
}

let server: Server | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

describe('the update path', () => {
  it('a real electron-updater check writes nothing under the data folder', async () => {
    const root = tempFolder('fw-update-path-');
    // the data folder (Electron's userData): journal, library, logs
    const dataDir = path.join(root, 'Framewright');
    openJournal({ path: path.join(dataDir, 'journal.sqlite') }).close();
    mkdirSync(path.join(dataDir, 'library', '2026-05-01', 'job_1'), { recursive: true });
    writeFileSync(path.join(dataDir, 'library', '2026-05-01', 'job_1', 'output-1.mp4'), 'video');
    const before = snapshot(dataDir);

    // the update feed: the same version as installed, so nothing is downloaded
    const requests: string[] = [];
    server = createServer((request, response) => {
      requests.push(request.url ?? '');
      if (request.url?.startsWith('/latest-linux.yml')) {
        response.setHeader('content-type', 'text/yaml');
        response.end(
          'version: 0.1.0\nfiles:\n  - url: framewright.deb\n    sha512: abc\n    size: 5\n' +
            'path: framewright.deb\nsha512: abc\nreleaseDate: 2026-01-01T00:00:00.000Z\n',
        );
      } else {
        response.statusCode = 404;
        response.end();
      }
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const resources = path.join(root, 'resources');
    mkdirSync(resources);
    writeFileSync(
      path.join(resources, 'app-update.yml'),
      `provider: generic\nurl: http://127.0.0.1:${port}/\nupdaterCacheDirName: framewright-updater\n`,
    );
    const cacheHome = path.join(root, 'cache');
    vi.stubEnv('XDG_CACHE_HOME', cacheHome);

    const electronApp = {
      isPackaged: true,
      getVersion: () => '0.1.0',
      getName: () => 'Framewright',
      getAppPath: () => path.join(resources, 'app.asar'),
      whenReady: async () => undefined,
      relaunch: () => undefined,
      quit: () => undefined,
      once: () => undefined,
    };
    const adapter = updaterAppAdapter(electronApp, await electronUpdaterFolders(electronApp, resources));
    const updater = createUpdater(DebUpdater, adapter, () => new NodeHttpExecutor());
    updater.logger = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const finished = new Promise<string>((resolve) => {
      updater.on('update-not-available', () => resolve('up to date'));
      updater.on('error', (error) => resolve(`error: ${error.stack}`));
    });
    const log = vi.fn();

    const started = await startUpdatesIfAllowed({
      isPackaged: true,
      activeProfileKind: 'personal',
      env: {},
      log,
      load: async () => updater,
    });

    expect(started).toBe(true);
    expect(await finished).toBe('up to date');
    expect(requests.some((url) => url.startsWith('/latest-linux.yml'))).toBe(true);
    expect(log).not.toHaveBeenCalled();
    // electron-updater's own state went to the OS cache, not beside the journal
    expect(readdirSync(path.join(cacheHome, 'Framewright-updater-state'))).toContain('.updaterId');
    expect(snapshot(dataDir)).toEqual(before);
  });
});
