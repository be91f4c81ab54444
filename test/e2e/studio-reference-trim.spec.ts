import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { locateMediaTools } from '../../src/shared/node/ffmpeg-locator';
import { violations } from './accessibility';
import { expect, test } from './studio-host';
import { chooseMode, dropFiles, freshDraft, generateAndFinish, makeMediaFiles } from './studio-media';
import { MEDIA_WAIT } from './waits';

// Issue 31: a reference audio longer than the H3 rules allow is trimmed in place, by keyboard,
// checked live by the rules; the draft keeps the range; only the kept range is sent.

function longVoice(): string {
  const dir = path.join(os.tmpdir(), `fw-e2e-trim-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'long-voice.wav');
  const { ffmpeg } = locateMediaTools();
  execFileSync(ffmpeg, ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=20', file]);
  return file;
}

test('a 20 s reference audio is trimmed in place to a range the rules accept, and kept in the draft', async ({
  signedIn: page,
}) => {
  const media = makeMediaFiles();
  await freshDraft(page);
  await chooseMode(page, 'universal_reference_video');
  await page.getByTestId('prompt').fill('Image 1 sways to Audio 1');
  await dropFiles(page, 'dropzone', [media.red, longVoice()]);
  const card = page.locator('[data-testid="reference-card"][data-file="long-voice.wav"]');
  // the rules refuse it, and the trim control opens in place
  await expect(card.locator('[data-code="reference.audio_too_long"]')).toBeVisible();
  await expect(page.getByTestId('generate')).toBeDisabled();
  const trim = card.getByTestId('reference-trim');
  await expect(trim).toBeVisible();
  await expect(trim.locator('audio')).toBeVisible();
  // the mouse drags a handle inside the (draggable) card, and "Send the whole file" undoes it
  // measured right before the drag, and dragged again if the card was still settling (the audio's
  // metadata arriving can move the handle between the measure and the press on a loaded machine)
  await expect(async () => {
    await trim.getByTestId('trim-end').scrollIntoViewIfNeeded();
    const endBox = (await trim.getByTestId('trim-end').boundingBox())!;
    await page.mouse.move(endBox.x + endBox.width - 4, endBox.y + endBox.height / 2);
    await page.mouse.down();
    await page.mouse.move(endBox.x + endBox.width / 2, endBox.y + endBox.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect(trim.getByTestId('trim-kept')).not.toContainText('– 20 s', { timeout: 2000 });
  }).toPass({ timeout: MEDIA_WAIT });
  await trim.getByTestId('trim-whole').click();
  await expect(trim.getByTestId('trim-kept')).toContainText('0 s – 20 s (20 s of 20 s)');
  // keyboard only: the end slider down by 5.5 s (PageDown moves a tenth of the range; arrows 10 ms)
  const end = trim.getByTestId('trim-end');
  await end.focus();
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageDown');
  await expect(trim.getByTestId('trim-kept')).toContainText('0 s – 16 s');
  // still 16 s: the rule's own message, and Generate refused
  await expect(card.locator('[data-code="reference.audio_too_long"]')).toContainText('lasts 16 s');
  await expect(page.getByTestId('generate')).toBeDisabled();
  for (let i = 0; i < 150; i++) await page.keyboard.press('ArrowLeft');
  // the start moves up by keyboard too
  await trim.getByTestId('trim-start').focus();
  for (let i = 0; i < 50; i++) await page.keyboard.press('ArrowRight');
  await expect(trim.getByTestId('trim-kept')).toContainText('0.5 s – 14.5 s (14 s of 20 s)');
  await expect(card.locator('[data-code="reference.audio_too_long"]')).toHaveCount(0);
  await expect(trim.getByTestId('trim-passes')).toBeVisible();
  await expect(page.getByTestId('generate')).toBeEnabled();
  await page.screenshot({
    path: 'test-results/screenshots/studio-create-reference-trim.png',
    fullPage: true,
  });
  // the open trim control (preview, labelled sliders, buttons) has no accessibility violation
  expect(await violations(page)).toEqual([]);
  // the draft keeps the range across a reload
  await page.waitForTimeout(600);
  await page.reload();
  await expect(
    page.locator('[data-testid="reference-card"][data-file="long-voice.wav"] [data-testid="trim-kept"]'),
  ).toContainText('0.5 s – 14.5 s');
  const rowId = await generateAndFinish(page, 'reference-trim');
  // the Library's detail says which range of the file was sent
  await page.getByTestId('nav-library').click();
  await page
    .locator(`[data-testid="library-card"][data-row-id="${rowId}"] [data-testid="library-open"]`)
    .click();
  await expect(page.getByTestId('detail-reference').filter({ hasText: 'long-voice.wav' })).toContainText(
    'kept 0.5–14.5 s',
  );
  await page.keyboard.press('Escape');
});
