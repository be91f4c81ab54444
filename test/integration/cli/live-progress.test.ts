import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFramewright, simulatorVideoArgs } from '../../support/cli-runner.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { ESC, terminalScreen } from '../../support/terminal-screen.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const BIN = path.join(ROOT, 'bin/framewright.js');
/** Back up over the live lines and erase them: how the live line rewrites itself. */
const REWRITE = `${ESC}[1A\r${ESC}[J`;
/** Slow enough that the job is seen queued and running, with polls in between. */
const TIME_SCALE = '0.6';

const quote = (arg: string) => `'${arg.replaceAll("'", `'\\''`)}'`;

/**
 * `framewright ARGS` with stderr on a pseudo-terminal (util-linux `script`) and stdout in a file:
 * what a user sees in a terminal while the result is redirected. Returns both.
 */
function underTerminal(
  args: string[],
  dir: string,
): Promise<{ code: number | null; terminal: string; stdout: string }> {
  const stdoutFile = path.join(dir, `stdout-${Math.random().toString(36).slice(2)}.txt`);
  const command = `${quote(process.execPath)} ${quote(BIN)} ${args.map(quote).join(' ')} > ${quote(stdoutFile)}`;
  return new Promise((resolve) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: ROOT,
      env: {
        ...process.env,
        FRAMEWRIGHT_SIMULATOR_TIME_SCALE: TIME_SCALE,
        FRAMEWRIGHT_API_KEY: '',
        COLUMNS: '200',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let terminal = '';
    child.stdout.on('data', (d: Buffer) => (terminal += d));
    child.stderr.on('data', (d: Buffer) => (terminal += d));
    child.on('close', (code) => resolve({ code, terminal, stdout: readFileSync(stdoutFile, 'utf8') }));
  });
}

/** The last state of a terminal's screen after `output`, its non-empty lines. */
const finalScreen = (output: string): string[] => terminalScreen(output).filter(Boolean);

describe('framewright video: the live line only on a terminal', () => {
  it('is script(1) from util-linux that gives the test its terminal', () => {
    expect(execFileSync('script', ['--version'], { encoding: 'utf8' })).toMatch(/util-linux/);
  });

  it('on a terminal one line rewritten in place; in a pipe plain lines at each change; the same result on stdout', async () => {
    const dir = tempFolder('fw-live-');
    const args = (dataDir: string, prompt: string) =>
      simulatorVideoArgs(dataDir, prompt).filter((arg) => arg !== '--json');

    const tty = await underTerminal(args(path.join(dir, 'tty'), 'A kite over the dunes'), dir);
    expect(tty.code, tty.terminal).toBe(0);
    // rewritten in place, many times, one line for the one job
    expect(tty.terminal.split(REWRITE).length).toBeGreaterThan(3);
    const frames = tty.terminal.split(REWRITE).map((frame) => frame.replace(/\r?\n$/, ''));
    expect(frames.some((f) => /^video · job_\w+ · queued/.test(f))).toBe(true);
    expect(frames.some((f) => /^video · job_\w+ · (queued|running)\S* .* · next poll in \d+s/.test(f))).toBe(
      true,
    );
    expect(frames.every((f) => !f.includes('\n'))).toBe(true);
    const screen = finalScreen(tty.terminal);
    expect(screen).toHaveLength(1);
    expect(screen[0]).toMatch(
      /^video · job_\w+ · succeeded: stored and verified · elapsed \d+s · ↓ [\d.]+ \w+\/[\d.]+ \w+/,
    );
    expect(tty.stdout).toMatch(/^succeeded: job job_\w+ \(succeeded\)\n/);
    expect(tty.stdout).not.toContain(ESC);

    const pipe = await runFramewright(args(path.join(dir, 'pipe'), 'A kite over the dunes'), {
      FRAMEWRIGHT_SIMULATOR_TIME_SCALE: TIME_SCALE,
    });
    expect(pipe.code, pipe.stderr).toBe(0);
    expect(pipe.stderr).not.toContain(ESC);
    const lines = pipe.stderr.trim().split('\n');
    expect(lines[0]).toBe('video · discovery · elapsed 0s');
    expect(lines).toContainEqual(expect.stringMatching(/^video · job_\w+ · queued · elapsed \d+s$/));
    expect(lines.at(-1)).toMatch(/^video · job_\w+ · succeeded: stored and verified · elapsed \d+s · ↓ /);
    // a line per change, never one per tick: no line repeats what the one before it said
    const said = lines.map((line) => line.replace(/ · elapsed \d+s/, '').replace(/ · ↓ .*/, ''));
    for (let i = 1; i < said.length; i++)
      if (!said[i]!.endsWith('download')) expect(said[i]).not.toBe(said[i - 1]);
    expect(lines.length).toBeLessThan(12);
    // stdout is the result alone either way
    const result =
      /^succeeded: job job_\w+ \(succeeded\)\n {2}\S+\.mp4 {2}sha256 [0-9a-f]{64} {2}verified\n$/;
    expect(tty.stdout).toMatch(result);
    expect(pipe.stdout).toMatch(result);
  });

  it('--json: stdout is the same on a terminal and in a pipe, and nothing is drawn', async () => {
    const dir = tempFolder('fw-live-json-');
    const dataDir = path.join(dir, 'data');
    const args = [
      ...simulatorVideoArgs(dataDir, 'A lighthouse at dusk'),
      '--idempotency-key',
      'fw-live-json-1',
    ];
    const tty = await underTerminal(args, dir);
    expect(tty.code, tty.terminal).toBe(0);
    expect(tty.terminal).toBe('');
    // the same intent again, through pipes: the same job, and byte for byte the same answer
    const pipe = await runFramewright(args, { FRAMEWRIGHT_SIMULATOR_TIME_SCALE: TIME_SCALE });
    expect(pipe.code, pipe.stderr).toBe(0);
    expect(pipe.stderr).toBe('');
    expect(pipe.stdout).toBe(tty.stdout);
    expect(JSON.parse(tty.stdout)).toMatchObject({
      state: 'succeeded',
      status: 'succeeded',
      idempotencyKey: 'fw-live-json-1',
    });
  });
});
