import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type Page } from '@playwright/test';
import { locateMediaTools } from '../../src/shared/node/ffmpeg-locator';
import { signInContext, startStudioHost } from '../support/studio-host-process';
import { violations } from './accessibility';
import { expect } from './studio-host';

/**
 * Trim (issue 31) in Chromium: two generated shots trimmed on their strips — one with the handles
 * (dragged), one by keyboard (playhead ←/→, I, O) — saved, shown on their cards, and assembled into
 * a file that lasts the kept lengths. The open strip has no axe-core violations.
 */

const FPS = 24;

async function addShot(page: Page, prompt: string, count: number) {
  await page.getByTestId('sequence-shot-prompt').fill(prompt);
  await page.getByTestId('sequence-shot-seconds').selectOption('5');
  await page.getByTestId('sequence-add-shot').click();
  await expect(page.getByTestId('sequence-strip').locator(':scope > li')).toHaveCount(count);
}

/** The kept range the open strip shows: its frames. */
async function kept(page: Page, index: number): Promise<[number, number]> {
  const line = page.getByTestId(`sequence-trim-kept-${index}`);
  return [
    Number(await line.getAttribute('data-in-frame')),
    Number(await line.getAttribute('data-out-frame')),
  ];
}

test('two shots trimmed with the handles and the keyboard are assembled to their kept lengths', async ({
  page,
}) => {
  test.setTimeout(300_000);
  mkdirSync('test-results/screenshots', { recursive: true });
  const host = await startStudioHost();
  try {
    await signInContext(page.context(), host.host);
    await page.goto(host.host.origin + '/');
    await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'connected');
    await page.getByTestId('nav-sequences').click();
    await page.getByTestId('sequence-new-name').fill('Trimmed harbour');
    await page.getByTestId('sequence-create').click();
    await addShot(page, 'Gulls circle above the quay', 1);
    await addShot(page, 'A ferry docks in the rain', 2);
    await expect(page.getByTestId('sequence-shot-trim-0')).toBeDisabled();
    await page.getByTestId('sequence-generate-all').click();
    await expect(page.getByTestId('sequence-shot-trim-0')).toBeEnabled({ timeout: 120_000 });
    await expect(page.getByTestId('sequence-shot-trim-1')).toBeEnabled({ timeout: 120_000 });

    // shot 1: drag the in handle to a fifth of the strip and the out handle to three fifths
    await page.getByTestId('sequence-shot-trim-0').click();
    const strip0 = page.getByTestId('sequence-trim-strip-0');
    await strip0.scrollIntoViewIfNeeded();
    await expect(strip0.locator('img').first()).toBeVisible();
    const box = (await strip0.boundingBox())!;
    const drag = async (handle: string, fraction: number) => {
      const h = (await page.getByTestId(handle).boundingBox())!;
      await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * fraction, box.y + box.height / 2, { steps: 8 });
      await page.mouse.up();
    };
    await drag('sequence-trim-in-0', 0.2);
    await drag('sequence-trim-out-0', 0.6);
    const [in0, out0] = await kept(page, 0);
    expect(Math.abs(in0 - 24)).toBeLessThanOrEqual(2);
    expect(Math.abs(out0 - 72)).toBeLessThanOrEqual(2);
    // a handle moves by one frame with the arrow keys
    await page.getByTestId('sequence-trim-in-0').press('ArrowRight');
    expect(await kept(page, 0)).toEqual([in0 + 1, out0]);
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/screenshots/sequence-trim.png', fullPage: true });
    await page.getByTestId('sequence-trim-save-0').click();
    await expect(page.getByTestId('sequence-trim-panel-0')).toHaveCount(0);
    await expect(page.getByTestId('sequence-shot-trim-badge-0')).toBeVisible();
    const seconds0 = (out0 - in0 - 1) / FPS;
    await expect(page.getByTestId('sequence-shot-duration-0')).toHaveAttribute(
      'data-seconds',
      String(Number(seconds0.toFixed(3))),
    );

    // shot 2 by keyboard: the playhead to frame 12, I; to frame 59, O (frames 12..59 kept: 2 s)
    await page.getByTestId('sequence-shot-trim-1').click();
    const playhead = page.getByTestId('sequence-trim-playhead-1');
    await playhead.focus();
    for (let i = 0; i < 12; i += 1) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('i');
    for (let i = 0; i < 47; i += 1) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('o');
    expect(await kept(page, 1)).toEqual([12, 60]);
    await expect(page.getByTestId('sequence-trim-kept-1')).toContainText('Kept 2 s of 5 s (48 frames)');
    await page.getByTestId('sequence-trim-save-1').click();
    await expect(page.getByTestId('sequence-shot-duration-1')).toHaveAttribute('data-seconds', '2');

    // the assembly (straight cuts) lasts the kept lengths, within one frame
    const total = seconds0 + 2;
    await expect
      .poll(async () => Number(await page.getByTestId('sequence-total').getAttribute('data-seconds')))
      .toBeCloseTo(total, 2);
    await page.getByTestId('sequence-crossfade').selectOption('0');
    await page.getByTestId('sequence-assemble').click();
    const player = page.getByTestId('sequence-assembly-player');
    await expect(player).toBeVisible({ timeout: 180_000 });
    const src = (await player.getAttribute('src'))!;
    const base64 = await page.evaluate(async (url: string) => {
      const res = await fetch(url);
      const bytes = new Uint8Array(await res.arrayBuffer());
      let text = '';
      for (let i = 0; i < bytes.length; i += 0x8000)
        text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
      return btoa(text);
    }, src);
    const file = path.join(os.tmpdir(), `fw-e2e-trim-${process.pid}.mp4`);
    writeFileSync(file, Buffer.from(base64, 'base64'));
    const duration = Number(
      execFileSync(
        locateMediaTools().ffprobe,
        ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=duration', '-of', 'csv=p=0', file],
        { encoding: 'utf8' },
      ).trim(),
    );
    expect(Math.abs(duration - total)).toBeLessThanOrEqual(1 / FPS);
  } finally {
    await host.stop();
  }
});
