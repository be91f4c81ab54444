import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
}
export interface WindowState extends WindowBounds {
  maximized: boolean;
}
export interface DisplayArea {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const DEFAULT_WINDOW_STATE: WindowState = { width: 1280, height: 820, maximized: false };

function isVisibleOn(state: WindowBounds, displays: DisplayArea[]): boolean {
  if (state.x === undefined || state.y === undefined) return true;
  const { x, y, width } = state;
  // visible when the title bar's middle lies on some display
  const probeX = x + Math.min(width / 2, 100);
  const probeY = y + 10;
  return displays.some(
    (d) => probeX >= d.x && probeX < d.x + d.width && probeY >= d.y && probeY < d.y + d.height,
  );
}

/**
 * Remembers the window's size, position and maximized state in `<userData>/window-state.json`.
 * A saved position that lies on no connected display (a monitor was unplugged) is dropped so
 * the window never opens off-screen.
 */
export function loadWindowState(userDataDir: string, displays: DisplayArea[]): WindowState {
  const file = path.join(userDataDir, 'window-state.json');
  if (!existsSync(file)) return { ...DEFAULT_WINDOW_STATE };
  try {
    const raw = JSON.parse(readFileSync(file, 'utf8')) as Partial<WindowState>;
    const width = Number.isInteger(raw.width) && raw.width! >= 400 ? raw.width! : DEFAULT_WINDOW_STATE.width;
    const height =
      Number.isInteger(raw.height) && raw.height! >= 300 ? raw.height! : DEFAULT_WINDOW_STATE.height;
    const state: WindowState = { width, height, maximized: raw.maximized === true };
    if (Number.isInteger(raw.x) && Number.isInteger(raw.y)) {
      const placed = { ...state, x: raw.x!, y: raw.y! };
      if (isVisibleOn(placed, displays)) return placed;
    }
    return state;
  } catch {
    return { ...DEFAULT_WINDOW_STATE };
  }
}

export function saveWindowState(userDataDir: string, state: WindowState): void {
  mkdirSync(userDataDir, { recursive: true });
  writeFileSync(path.join(userDataDir, 'window-state.json'), JSON.stringify(state));
}
