import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WINDOW_STATE,
  loadWindowState,
  saveWindowState,
} from '../../../src/main/shell/window-state.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const DISPLAY = [{ x: 0, y: 0, width: 1920, height: 1080 }];
const tmp = () => tempFolder('fw-window-');

describe('window state', () => {
  it('remembers size, position and maximized state', () => {
    const dir = tmp();
    saveWindowState(dir, { x: 100, y: 50, width: 1100, height: 700, maximized: true });
    expect(loadWindowState(dir, DISPLAY)).toEqual({
      x: 100,
      y: 50,
      width: 1100,
      height: 700,
      maximized: true,
    });
  });

  it('drops a position that is on no connected display', () => {
    const dir = tmp();
    saveWindowState(dir, { x: 3000, y: 50, width: 1100, height: 700, maximized: false });
    expect(loadWindowState(dir, DISPLAY)).toEqual({ width: 1100, height: 700, maximized: false });
  });

  it('falls back to defaults for a missing or corrupt file', () => {
    expect(loadWindowState(tmp(), DISPLAY)).toEqual(DEFAULT_WINDOW_STATE);
    const dir = tmp();
    writeFileSync(path.join(dir, 'window-state.json'), '{not json');
    expect(loadWindowState(dir, DISPLAY)).toEqual(DEFAULT_WINDOW_STATE);
    writeFileSync(path.join(dir, 'window-state.json'), JSON.stringify({ width: 5, height: -1 }));
    expect(loadWindowState(dir, DISPLAY)).toMatchObject({ width: 1280, height: 820 });
  });
});
