import { describe, expect, it, vi } from 'vitest';
import { IPC_STAGE_FILE_CHANNEL } from '../../../src/shared/bridge/api.js';
import { registerFileStagingIpc } from '../../../src/main/shell/media-protocol.js';

const APP = 'file:///app/renderer/index.html';
const frame = (url: string, parent: unknown = null) => ({ senderFrame: { url, parent } });

function setup() {
  let handler: ((event: unknown, path: unknown, purpose?: unknown) => Promise<unknown>) | undefined;
  const stageCopy = vi.fn(async (p: string) => ({ id: 'x', fileName: p.split('/').pop() }));
  registerFileStagingIpc(
    {
      handle: (channel: string, h: typeof handler) => channel === IPC_STAGE_FILE_CHANNEL && (handler = h),
    } as never,
    { staged: { stageCopy } } as never,
    (url) => url === APP,
  );
  return {
    call: (event: unknown, path: unknown) => handler!(event, path),
    callFor: (event: unknown, path: unknown, purpose: unknown) => handler!(event, path, purpose),
    stageCopy,
  };
}

describe('Electron file staging IPC', () => {
  it('stages a path only for the app’s own top-level frame', async () => {
    const { call, stageCopy } = setup();
    expect(await call(frame('https://evil.example/'), '/home/u/a.png')).toMatchObject({
      ok: false,
      error: { code: 'bridge.untrusted_sender' },
    });
    expect(await call(frame(APP, {}), '/home/u/a.png')).toMatchObject({ ok: false });
    expect(stageCopy).not.toHaveBeenCalled();
    expect(await call(frame(APP), '/home/u/a.png')).toEqual({
      ok: true,
      result: { id: 'x', fileName: 'a.png' },
    });
    expect(stageCopy).toHaveBeenCalledWith('/home/u/a.png');
  });

  it('refuses anything that is not a path string, and reports staging errors without throwing', async () => {
    const { call, stageCopy } = setup();
    for (const bad of [undefined, 42, '', 'x'.repeat(5000), { path: '/etc/passwd' }])
      expect(await call(frame(APP), bad)).toMatchObject({ ok: false, error: { code: 'file.no_path' } });
    stageCopy.mockRejectedValueOnce(
      Object.assign(new Error('The dropped item is not a file.'), { code: 'file.not_found' }),
    );
    expect(await call(frame(APP), '/tmp/dir')).toEqual({
      ok: false,
      error: { code: 'file.not_found', message: 'The dropped item is not a file.' },
    });
  });

  it('stages for the Playground into the same store, behind the same sender check; an unknown purpose is refused', async () => {
    const { callFor, stageCopy } = setup();
    expect(await callFor(frame('https://evil.example/'), '/home/u/a.wav', 'playground')).toMatchObject({
      ok: false,
      error: { code: 'bridge.untrusted_sender' },
    });
    for (const bad of ['elsewhere', 42, { purpose: 'playground' }])
      expect(await callFor(frame(APP), '/home/u/a.wav', bad)).toMatchObject({
        ok: false,
        error: { code: 'file.bad_purpose' },
      });
    expect(stageCopy).not.toHaveBeenCalled();
    expect(await callFor(frame(APP), '/home/u/a.wav', 'playground')).toMatchObject({ ok: true });
    expect(stageCopy).toHaveBeenCalledWith('/home/u/a.wav', 'playground');
    expect(await callFor(frame(APP), '/home/u/b.png', 'composer')).toMatchObject({ ok: true });
    expect(stageCopy).toHaveBeenLastCalledWith('/home/u/b.png');
  });
});
