import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `framewright` binary (bin/framewright.js) in a child process, as a user's shell
 * would. No key leaks in from the developer's environment; the embedded simulator runs fast.
 */
export function runFramewright(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/framewright.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, FRAMEWRIGHT_SIMULATOR_TIME_SCALE: '0.05', FRAMEWRIGHT_API_KEY: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `framewright video` on the embedded simulator: a 5-second landscape text-to-video, as JSON. */
export function simulatorVideoArgs(dataDir: string, prompt: string): string[] {
  return [
    ...['--data-dir', dataDir, '--json', 'video', '--model', 'h3-video', '--mode', 't2v'],
    ...['--prompt', prompt, '--seconds', '5', '--orientation', 'landscape'],
  ];
}
