/**
 * Media tools run below the backend: at nice 10 (`low`, the desktop's default), under SCHED_IDLE
 * (`idle`: `chrt --idle 0`, the tool's own process id; the team backend's default) on Linux, at the
 * backend's priority with `normal`; a misspelt setting is an error that names the three.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it, vi } from 'vitest';
import { ExitCode } from '../../../src/cli/exit-codes.js';
import { runCli } from '../../../src/cli/main.js';
import {
  atMediaPriority,
  lowerPriority,
  mediaPriorityFromEnv,
} from '../../../src/main/core/media-tools/tool-priority.js';

/** What a process started as `started` prints, and its process id as the caller holds it. */
async function output(started: { command: string; args: string[] }) {
  const child = spawn(started.command, started.args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise((resolve) => child.on('close', resolve));
  expect(code).toBe(0);
  return { out: out.trim(), pid: child.pid };
}

const SHOW_POLICY = ['-c', 'grep -E "^policy" /proc/self/sched | tr -s " "'];

describe('the media tools’ priority', () => {
  it('is low unless set (the desktop and the CLI); idle and normal are the other two; anything else names them', () => {
    expect(mediaPriorityFromEnv({})).toBe('low');
    expect(mediaPriorityFromEnv({}, 'idle')).toBe('idle');
    expect(mediaPriorityFromEnv({ FRAMEWRIGHT_MEDIA_PRIORITY: 'idle' })).toBe('idle');
    expect(mediaPriorityFromEnv({ FRAMEWRIGHT_MEDIA_PRIORITY: ' low ' })).toBe('low');
    expect(mediaPriorityFromEnv({ FRAMEWRIGHT_MEDIA_PRIORITY: 'normal' })).toBe('normal');
    expect(() => mediaPriorityFromEnv({ FRAMEWRIGHT_MEDIA_PRIORITY: 'background' })).toThrow(
      /FRAMEWRIGHT_MEDIA_PRIORITY must be idle, low or normal \(got "background"\)/,
    );
  });

  it.runIf(process.platform === 'linux')(
    'idle starts the tool under SCHED_IDLE, as the same process',
    async () => {
      const started = atMediaPriority('/bin/sh', SHOW_POLICY, 'idle');
      expect(started.args.slice(-3)).toEqual(['/bin/sh', ...SHOW_POLICY]);
      // SCHED_IDLE is policy 5 (SCHED_OTHER 0)
      expect((await output(started)).out).toBe('policy : 5');
      // chrt replaces itself with the tool: the pid the caller holds (to stop it) is the tool's
      const { out, pid } = await output(atMediaPriority('/bin/sh', ['-c', 'echo $$'], 'idle'));
      expect(Number(out)).toBe(pid);
    },
  );

  it('stops the CLI at start with exit code 2 when misspelt, as the encoder preset does', async () => {
    vi.stubEnv('FRAMEWRIGHT_MEDIA_PRIORITY', 'background');
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runCli(['node', 'framewright', '--version'])).toBe(ExitCode.invalidInput);
      expect(stderr).toHaveBeenCalledWith(
        expect.stringMatching(/^framewright: FRAMEWRIGHT_MEDIA_PRIORITY must be idle, low or normal/),
      );
    } finally {
      stderr.mockRestore();
      vi.unstubAllEnvs();
    }
  });

  it('low and normal start the tool itself, at the default policy', async () => {
    for (const priority of ['low', 'normal'] as const) {
      const started = atMediaPriority('/bin/sh', SHOW_POLICY, priority);
      expect(started).toEqual({ command: '/bin/sh', args: SHOW_POLICY });
      if (process.platform === 'linux') expect((await output(started)).out).toBe('policy : 0');
    }
  });

  it('low lowers a started tool to nice 10; normal leaves it', async () => {
    const niceOf = async (priority: 'low' | 'normal') => {
      const child = spawn('/bin/sh', ['-c', 'sleep 0.3; cut -d" " -f19 /proc/self/stat'], { stdio: 'pipe' });
      lowerPriority(child.pid, priority);
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      await new Promise((resolve) => child.on('close', resolve));
      return Number(out.trim());
    };
    expect(await niceOf('low')).toBe(10);
    expect(await niceOf('normal')).toBe(0);
  });
});
