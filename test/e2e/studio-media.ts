import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { expect } from './studio-host';
import { locateMediaTools } from '../../src/shared/node/ffmpeg-locator';
import { HOST_SESSION_STORAGE_KEY } from '../../src/shared/bridge/browser-host-protocol';
import { MEDIA_WAIT } from './waits';

/** Real media made with ffmpeg for the composer: PNG images, an MP4, WAVs, a .mov with audio. */
export interface MediaFiles {
  dir: string;
  red: string;
  blue: string;
  green: string;
  clip: string;
  voice: string;
  music: string;
  short: string;
  movWithAudio: string;
}

let cached: MediaFiles | undefined;

/** The part of a media element the tests read. */
export interface MediaElement {
  readyState: number;
  paused: boolean;
}

interface BrowserDrag {
  DataTransfer: new () => { items: { add(file: unknown): void } };
  DragEvent: new (type: string, init: Record<string, unknown>) => unknown;
}

export function makeMediaFiles(): MediaFiles {
  if (cached) return cached;
  const dir = path.join(os.tmpdir(), `fw-e2e-media-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const { ffmpeg } = locateMediaTools();
  const run = (...args: string[]) => execFileSync(ffmpeg, ['-v', 'error', '-y', ...args]);
  const files: MediaFiles = {
    dir,
    red: path.join(dir, 'red.png'),
    blue: path.join(dir, 'blue.png'),
    green: path.join(dir, 'green.png'),
    clip: path.join(dir, 'clip.mp4'),
    voice: path.join(dir, 'voice.wav'),
    music: path.join(dir, 'music.wav'),
    short: path.join(dir, 'short.wav'),
    movWithAudio: path.join(dir, 'take.mov'),
  };
  for (const [file, color] of [
    [files.red, 'red'],
    [files.blue, 'blue'],
    [files.green, 'green'],
  ] as const)
    run('-f', 'lavfi', '-i', `color=c=${color}:s=640x360`, '-frames:v', '1', file);
  run(
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=640x360:rate=24',
    '-t',
    '3',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    files.clip,
  );
  run('-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '3', files.voice);
  run('-f', 'lavfi', '-i', 'sine=frequency=660', '-t', '4', files.music);
  run('-f', 'lavfi', '-i', 'sine=frequency=220', '-t', '1', files.short);
  run(
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=320x180:rate=24',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=330',
    '-t',
    '3',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-c:a',
    'aac',
    '-shortest',
    files.movWithAudio,
  );
  cached = files;
  return files;
}

/** Drops files on an element the way a desktop drag does: a real `drop` event with a DataTransfer. */
export async function dropFiles(page: Page, testId: string, files: string[]): Promise<void> {
  const payload = files.map((file) => ({
    name: path.basename(file),
    type: '',
    data: readFileSync(file).toString('base64'),
  }));
  await page.getByTestId(testId).evaluate((el, items) => {
    // browser globals (this file is type-checked without the DOM library)
    const { DataTransfer, DragEvent } = globalThis as unknown as BrowserDrag;
    const dt = new DataTransfer();
    for (const item of items) {
      const bytes = Uint8Array.from(atob(item.data), (c) => c.charCodeAt(0));
      dt.items.add(new File([bytes], item.name, { type: item.type }));
    }
    el.dispatchEvent(
      new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }) as Event,
    );
    el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }) as Event);
  }, payload);
}

/** A fresh Create form (new draft with its own key), on the first available service. */
export async function freshDraft(page: Page): Promise<void> {
  await page.getByTestId('nav-create').click();
  await page.getByTestId('new-draft-top').click();
  // the new draft is shown (until then the form being left takes no edit)
  await expect(page.getByTestId('new-draft-top')).toBeEnabled();
  await expect(page.getByTestId('prompt')).toHaveValue('');
  await expect(page.getByTestId('field-generationMode')).toBeVisible();
}

export async function chooseMode(page: Page, mode: string): Promise<void> {
  await page.getByTestId(`option-generationMode-${mode}`).click();
  await expect(page.getByTestId(`option-generationMode-${mode}`)).toHaveAttribute('data-state', 'checked');
}

/** Generates and waits until the Queue shows the job verified; returns its row id. */
export async function generateAndFinish(page: Page, shot: string): Promise<string> {
  await expect(page.getByTestId('generate')).toBeEnabled();
  await page.getByTestId('generate').dblclick();
  await expect(page.getByTestId('submit-status')).toBeVisible({ timeout: MEDIA_WAIT });
  await expect(page.getByTestId('draft-submitted')).toBeVisible();
  await page.getByTestId('open-queue').click();
  const row = page.getByTestId('job-row').first();
  await expect(row).toBeVisible();
  const rowId = (await row.getAttribute('data-row-id'))!;
  await expect(page.locator(`[data-row-id="${rowId}"] [data-testid="job-verified"]`)).toBeVisible({
    timeout: 60_000,
  });
  await page.screenshot({ path: `test-results/screenshots/studio-queue-${shot}.png` });
  return rowId;
}

/**
 * A t2v draft of this prompt, length and locked seed, generated and verified (the billing summary
 * shows the length first); returns the job's row id. `shot` names the Queue's screenshot.
 */
export async function generateT2v(
  page: Page,
  prompt: string,
  seconds: number,
  seed: number,
  shot: string,
): Promise<string> {
  await freshDraft(page);
  await chooseMode(page, 't2v');
  await page.getByTestId('prompt').fill(prompt);
  await page.getByTestId('field-seconds-input').fill(String(seconds));
  if ((await page.getByTestId('seed-lock').getAttribute('data-state')) !== 'checked')
    await page.getByTestId('seed-lock').click();
  await page.getByTestId('seed-input').fill(String(seed));
  await expect(page.getByTestId('billing-summary')).toContainText(`${seconds} s`);
  return generateAndFinish(page, shot);
}

/**
 * Assembles the open sequence and waits until its player has loaded the film (no assembly error);
 * answers the player.
 */
export async function assembleAndLoad(page: Page): Promise<Locator> {
  await page.getByTestId('sequence-assemble').click();
  const player = page.getByTestId('sequence-assembly-player');
  await expect(player).toBeVisible({ timeout: 180_000 });
  await expect(page.getByTestId('sequence-assembly-error')).toHaveCount(0);
  await expect
    .poll(() => player.evaluate((v: MediaElement) => v.readyState), { timeout: MEDIA_WAIT })
    .toBeGreaterThanOrEqual(2);
  return player;
}

/** Opens a result in the Library and plays it. */
export async function openInLibrary(page: Page, rowId: string, shot: string): Promise<void> {
  await page.getByTestId('nav-library').click();
  const card = page.locator(`[data-testid="library-card"][data-row-id="${rowId}"]`);
  await expect(card).toBeVisible();
  await card.getByTestId('library-open').click();
  const player = page.getByTestId('detail-player');
  await expect(player).toBeVisible();
  await expect
    .poll(() => player.evaluate((v: MediaElement) => v.readyState), { timeout: MEDIA_WAIT })
    .toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('detail-verified')).toBeVisible({ timeout: MEDIA_WAIT });
  await page.screenshot({ path: `test-results/screenshots/studio-library-${shot}.png` });
  await page.keyboard.press('Escape');
}

interface PageStorage {
  sessionStorage: { getItem(key: string): string | null };
}

/** The simulator's count of creations per idempotency key (must stay 1 each). */
export async function simulatorKeys(
  page: Page,
): Promise<{ idempotencyKey: string; created: number; operation: string }[]> {
  // the page's own token, where the page keeps it
  const list = (await page.evaluate(async (tokenKey: string) => {
    const res = await fetch('/bridge/invoke', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${(globalThis as unknown as PageStorage).sessionStorage.getItem(tokenKey)}`,
      },
      body: JSON.stringify({ method: 'profiles.list', params: {} }),
    });
    return res.json();
  }, HOST_SESSION_STORAGE_KEY)) as { result: { profiles: { id: string; baseUrl: string | null }[] } };
  const baseUrl = list.result.profiles.find((p) => p.id === 'simulator')!.baseUrl!;
  const res = await fetch(`${baseUrl}/_simulator/idempotency`, {
    headers: { authorization: 'Bearer fw-local-test-token' },
  });
  const body = (await res.json()) as {
    data: { idempotencyKey: string; created: number; operation: string }[];
  };
  return body.data;
}

/** The compare's one play/pause drives both players: B plays with A, then pauses with it. */
export async function compareTransportDrivesBoth(page: Page): Promise<void> {
  const b = page.getByTestId('compare-player-1');
  await page.getByTestId('compare-play').click();
  await expect.poll(() => b.evaluate((v: MediaElement) => !v.paused)).toBe(true);
  await page.getByTestId('compare-pause').click();
  await expect.poll(() => b.evaluate((v: MediaElement) => v.paused)).toBe(true);
}
