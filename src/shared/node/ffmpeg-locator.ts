import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
  /** Where the ffmpeg binary was found, for diagnostics. */
  source: 'FFMPEG_PATH' | 'ffmpeg-static' | 'PATH';
}

export class MediaToolsMissingError extends Error {
  constructor() {
    super(
      'ffmpeg was not found. Set FFMPEG_PATH to an ffmpeg binary, install the optional ffmpeg-static package, ' +
        'or install ffmpeg on PATH (Debian/Ubuntu: apt-get install ffmpeg).',
    );
    this.name = 'MediaToolsMissingError';
  }
}

function onPath(name: string, envPath = process.env.PATH ?? ''): string | undefined {
  const exts = process.platform === 'win32' ? ['.exe', ''] : [''];
  for (const dir of envPath.split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const candidate = path.join(dir, name + ext);
      if (existsSync(candidate)) return candidate;
    }
  }
  return undefined;
}

function siblingProbe(ffmpeg: string): string | undefined {
  const dir = path.dirname(ffmpeg);
  const base = path.basename(ffmpeg).replace(/ffmpeg/i, 'ffprobe');
  const candidate = path.join(dir, base);
  return existsSync(candidate) ? candidate : undefined;
}

let cached: MediaTools | undefined;

/**
 * Finds ffmpeg and ffprobe: `FFMPEG_PATH` (and `FFPROBE_PATH`) first, then the optional
 * ffmpeg-static package, then `PATH`. ffprobe is looked up beside the chosen ffmpeg, then on PATH.
 */
export function locateMediaTools(env: NodeJS.ProcessEnv = process.env): MediaTools {
  if (cached && env === process.env) return cached;
  let ffmpeg: string | undefined;
  let source: MediaTools['source'] = 'PATH';
  if (env.FFMPEG_PATH && existsSync(env.FFMPEG_PATH)) {
    ffmpeg = env.FFMPEG_PATH;
    source = 'FFMPEG_PATH';
  }
  if (!ffmpeg) {
    try {
      const require = createRequire(import.meta.url);
      const staticPath = require('ffmpeg-static') as string | null;
      if (staticPath && existsSync(staticPath)) {
        ffmpeg = staticPath;
        source = 'ffmpeg-static';
      }
    } catch {
      // optional dependency not installed (its binary download fails offline)
    }
  }
  if (!ffmpeg) ffmpeg = onPath('ffmpeg', env.PATH);
  if (!ffmpeg) throw new MediaToolsMissingError();
  const ffprobe =
    (env.FFPROBE_PATH && existsSync(env.FFPROBE_PATH) ? env.FFPROBE_PATH : undefined) ??
    siblingProbe(ffmpeg) ??
    onPath('ffprobe', env.PATH);
  if (!ffprobe) throw new MediaToolsMissingError();
  const tools = { ffmpeg, ffprobe, source };
  if (env === process.env) cached = tools;
  return tools;
}
