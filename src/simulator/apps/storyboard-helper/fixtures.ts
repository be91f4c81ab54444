import { createHash } from 'node:crypto';
import { gradientPng, type Rgb } from './png.js';

/**
 * The fixed boards of storyboard-helper's simulated backend: each belongs to one person (the
 * `userId` of a grant's `subject`). `member` has a three-panel board, `manager` a two-panel one,
 * `personal` none. Stable across runs.
 */

/** The application this backend serves and the API version it opens. */
export const STORYBOARD_APP_KEY = 'storyboard-helper';
export const STORYBOARD_API_VERSION = '2026-01';
export const SCOPE_READ = 'storyboard.read';
export const SCOPE_WRITE = 'storyboard.write';

export interface FixturePanel {
  panelId: string;
  prompt: string;
  top: Rgb;
  bottom: Rgb;
}

export interface FixtureBoard {
  boardId: string;
  /** The subject `userId` the board belongs to. */
  ownerUserId: string;
  title: string;
  createdAt: string;
  panels: FixturePanel[];
}

export const FIXTURE_BOARDS: readonly FixtureBoard[] = [
  {
    boardId: 'brd_sim_lighthouse',
    ownerUserId: 'usr_sim_member',
    title: 'The lighthouse keeper',
    createdAt: '2026-01-12T09:00:00.000Z',
    panels: [
      {
        panelId: 'pnl_sim_lighthouse_1',
        prompt: 'Wide shot: a lighthouse on a basalt cliff at dusk, the lamp just lit, waves below.',
        top: [36, 52, 110],
        bottom: [222, 128, 72],
      },
      {
        panelId: 'pnl_sim_lighthouse_2',
        prompt: 'Close-up: the keeper winds the clockwork, brass gears catching the lamp light.',
        top: [70, 48, 30],
        bottom: [200, 160, 90],
      },
      {
        panelId: 'pnl_sim_lighthouse_3',
        prompt: 'Night, from the sea: the beam sweeps over a small fishing boat in the fog.',
        top: [10, 16, 40],
        bottom: [90, 110, 140],
      },
    ],
  },
  {
    boardId: 'brd_sim_launch_teaser',
    ownerUserId: 'usr_sim_manager',
    title: 'Spring launch teaser',
    createdAt: '2026-01-20T14:30:00.000Z',
    panels: [
      {
        panelId: 'pnl_sim_teaser_1',
        prompt: 'A paper boat drifts down a rain gutter past blossoming cherry trees.',
        top: [120, 170, 210],
        bottom: [240, 200, 215],
      },
      {
        panelId: 'pnl_sim_teaser_2',
        prompt: 'The boat reaches a sunlit pond; the Northwind logo forms in the ripples.',
        top: [40, 120, 90],
        bottom: [230, 220, 150],
      },
    ],
  },
];

/** Panel images are 320x180 PNGs made in code. */
export const PANEL_IMAGE_WIDTH = 320;
export const PANEL_IMAGE_HEIGHT = 180;

export interface PanelImage {
  bytes: Buffer;
  sha256: string;
}

const images = new Map<string, PanelImage>();

/** The PNG of a fixture panel (made once per process; the same bytes every run). */
export function panelImage(panelId: string): PanelImage | undefined {
  const cached = images.get(panelId);
  if (cached) return cached;
  for (const board of FIXTURE_BOARDS)
    board.panels.forEach((panel, index) => {
      if (panel.panelId !== panelId) return;
      const bytes = gradientPng(
        PANEL_IMAGE_WIDTH,
        PANEL_IMAGE_HEIGHT,
        panel.top,
        panel.bottom,
        (index + 1) / (board.panels.length + 1),
      );
      images.set(panelId, { bytes, sha256: createHash('sha256').update(bytes).digest('hex') });
    });
  return images.get(panelId);
}

export function findBoard(boardId: string): FixtureBoard | undefined {
  return FIXTURE_BOARDS.find((b) => b.boardId === boardId);
}
