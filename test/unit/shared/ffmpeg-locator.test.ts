import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { locateMediaTools, MediaToolsMissingError } from '../../../src/shared/node/ffmpeg-locator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

function fakeBinaries(names: string[]): string {
  const dir = tempFolder('fw-bin-');
  mkdirSync(dir, { recursive: true });
  for (const name of names) {
    writeFileSync(path.join(dir, name), '#!/bin/sh\n');
    chmodSync(path.join(dir, name), 0o755);
  }
  return dir;
}

describe('ffmpeg locator', () => {
  it('prefers FFMPEG_PATH and finds ffprobe beside it', () => {
    const custom = fakeBinaries(['ffmpeg', 'ffprobe']);
    const onPath = fakeBinaries(['ffmpeg', 'ffprobe']);
    const tools = locateMediaTools({ FFMPEG_PATH: path.join(custom, 'ffmpeg'), PATH: onPath });
    expect(tools).toEqual({
      ffmpeg: path.join(custom, 'ffmpeg'),
      ffprobe: path.join(custom, 'ffprobe'),
      source: 'FFMPEG_PATH',
    });
  });

  it('falls back to PATH (ffmpeg-static is not installed here)', () => {
    const onPath = fakeBinaries(['ffmpeg', 'ffprobe']);
    expect(locateMediaTools({ PATH: onPath })).toMatchObject({
      ffmpeg: path.join(onPath, 'ffmpeg'),
      source: 'PATH',
    });
  });

  it('ignores an FFMPEG_PATH that does not exist', () => {
    const onPath = fakeBinaries(['ffmpeg', 'ffprobe']);
    expect(locateMediaTools({ FFMPEG_PATH: '/nope/ffmpeg', PATH: onPath }).source).toBe('PATH');
  });

  it('says how to get ffmpeg when there is none', () => {
    const empty = fakeBinaries([]);
    expect(() => locateMediaTools({ PATH: empty })).toThrow(MediaToolsMissingError);
    expect(() => locateMediaTools({ PATH: empty })).toThrow(/FFMPEG_PATH.*apt-get install ffmpeg/s);
  });
});
