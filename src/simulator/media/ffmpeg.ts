import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { locateMediaTools, type MediaTools } from '../../shared/node/ffmpeg-locator.js';

/** Children still running, so that closing the simulator can stop them. */
const running = new Set<ChildProcess>();

export function mediaTools(): MediaTools {
  return locateMediaTools();
}

export class MediaToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MediaToolError';
  }
}

/** Runs a tool asynchronously (never blocking the event loop); resolves with stdout. */
export function runTool(binary: string, args: string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString('utf8')).slice(-4000);
    });
    child.on('error', (error) => {
      running.delete(child);
      reject(new MediaToolError(`${binary} could not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      running.delete(child);
      if (code === 0) resolve(Buffer.concat(out));
      else
        reject(
          new MediaToolError(
            `${binary} exited with ${code ?? signal}: ${err.trim().split('\n').slice(-3).join(' | ')}`,
          ),
        );
    });
  });
}

export function runFfmpeg(args: string[]): Promise<Buffer> {
  return runTool(mediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args]);
}

/** Stops every tool process this module started (their ids only). */
export function killRunningTools(): void {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

const FONT_CANDIDATES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/TTF/DejaVuSans.ttf',
  '/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf',
  '/System/Library/Fonts/Supplemental/Arial.ttf',
  '/Library/Fonts/Arial.ttf',
  'C:/Windows/Fonts/arial.ttf',
];

/** A font file for drawtext; undefined means drawtext falls back to fontconfig's default. */
export function fontFile(): string | undefined {
  return FONT_CANDIDATES.find((candidate) => existsSync(candidate));
}

/** Escapes a path or value for a filtergraph option value in single quotes. */
export function filterQuote(value: string): string {
  return `'${value.replace(/\\/g, '/').replace(/'/g, "'\\''").replace(/:/g, '\\:')}'`;
}
