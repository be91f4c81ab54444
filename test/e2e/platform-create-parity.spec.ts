import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { extractLastFrame } from '../../src/main/core/media-tools/video-frames';
import { usePlatformWorld, type PlatformWorld } from './platform-world';
import { assembleAndLoad, chooseMode, freshDraft, generateAndFinish, openInLibrary } from './studio-media';
import { MEDIA_WAIT } from './waits';

/**
 * Creating on the platform as a member does on the desktop (issue 26): the optimizer then
 * Generate, a batch import of three prompts, and a three-shot sequence continued twice and
 * assembled — in Chromium, against `framewright simulator` and `framewright serve --platform`.
 */
let world: PlatformWorld;
let member: Page;

usePlatformWorld('platform-create-parity', async (opened, browser) => {
  world = opened;
  member = await world.openAs(browser, 'member');
});

test('optimize a prompt, accept it, then Generate: a verified result of the optimized prompt in the library', async () => {
  const original = 'A lighthouse keeper walks along the pier at dusk';
  await freshDraft(member);
  await chooseMode(member, 't2v');
  await member.getByTestId('prompt').fill(original);
  await expect(member.getByTestId('optimizer-billed')).toBeVisible();
  await member.getByTestId('optimizer-style').fill('cinematic');
  await member.getByTestId('optimize').click();
  await expect(member.getByTestId('optimizer-error')).toHaveCount(0);
  await expect(member.getByTestId('optimizer-optimized')).toBeVisible({ timeout: MEDIA_WAIT });
  await expect(member.getByTestId('optimizer-original')).toContainText(original);
  const optimized = (await member
    .getByTestId('optimizer-optimized')
    .locator('.prompt-text')
    .textContent())!.trim();
  expect(optimized.length).toBeGreaterThan(0);
  expect(optimized).not.toBe(original);
  await member.getByTestId('optimizer').scrollIntoViewIfNeeded();
  await member.screenshot({ path: 'test-results/screenshots/platform-optimize.png' });
  await member.getByTestId('optimizer-accept').click();
  await expect(member.getByTestId('prompt')).toHaveValue(optimized);

  const rowId = await generateAndFinish(member, 'platform-optimized');
  // the job the queue followed is the optimized prompt's
  await expect(member.locator(`[data-testid="job-row"][data-row-id="${rowId}"]`)).toContainText(
    optimized.slice(0, 40),
  );
  await openInLibrary(member, rowId, 'platform-optimized');
});

test('a batch of three prompts: three runtime jobs in the queue; the same file again creates none', async () => {
  const tag = `Batch ${Date.now().toString(36)}`;
  const file = path.join(world.dir, 'prompts.txt');
  writeFileSync(
    file,
    `# three prompts\n${tag}: a red fox in fresh snow\n${tag}: a blue whale, singing\n${tag}: a green parrot\n`,
  );
  const dialog = member.getByTestId('batch-dialog');
  const rows = (state: string) => dialog.locator(`[data-testid="batch-row"][data-state="${state}"]`);
  const jobs = member.getByTestId('job-row').filter({ hasText: tag });
  await freshDraft(member);
  await chooseMode(member, 't2v');
  await member.getByTestId('batch-file').setInputFiles(file);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('batch-row')).toHaveCount(3);
  await expect(rows('new')).toHaveCount(3);
  await expect(dialog.getByTestId('batch-summary')).toContainText('3 new video job');
  await expect(dialog.getByTestId('batch-generate')).toHaveText('Generate 3');
  await member.screenshot({ path: 'test-results/screenshots/platform-batch.png' });
  await dialog.getByTestId('batch-generate').click();
  // straight to the Queue: three jobs, each followed to its verified result
  await expect(jobs).toHaveCount(3, { timeout: MEDIA_WAIT });
  await expect(jobs.getByTestId('job-verified')).toHaveCount(3, { timeout: 90_000 });
  await member.screenshot({ path: 'test-results/screenshots/platform-batch-queue.png' });

  // the same file again: every row already sent, nothing to generate, no job created
  await member.getByTestId('nav-create').click();
  await member.getByTestId('batch-file').setInputFiles(file);
  await expect(dialog).toBeVisible();
  await expect(rows('already_sent')).toHaveCount(3);
  await expect(dialog.getByTestId('batch-generate')).toBeDisabled();
  await expect(dialog.getByTestId('batch-generate-reason')).toContainText('already sent');
  await member.screenshot({ path: 'test-results/screenshots/platform-batch-again.png' });
  await member.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await member.getByTestId('nav-queue').click();
  await expect(jobs).toHaveCount(3);
});

/** The shots of the strip, in order: origin and state. */
async function strip(page: Page) {
  return page
    .getByTestId('sequence-strip')
    .locator(':scope > li')
    .evaluateAll((cards) =>
      cards.map((card) => ({
        origin: card.getAttribute('data-origin') ?? '',
        state: card.getAttribute('data-state') ?? '',
      })),
    );
}

/** Generates shot `index` alone and waits for its verified result. */
async function generateShot(page: Page, index: number) {
  await page.getByTestId(`sequence-shot-generate-${index}`).click();
  await expect(page.getByTestId(`sequence-shot-${index}`)).toHaveAttribute('data-state', 'succeeded', {
    timeout: 120_000,
  });
  await expect(page.getByTestId(`sequence-shot-error-${index}`)).toHaveCount(0);
}

/** Gives shot `index` (a draft) its own prompt. */
async function promptShot(page: Page, index: number, prompt: string) {
  await page.getByTestId(`sequence-shot-edit-${index}`).click();
  await page.getByTestId(`sequence-shot-edit-prompt-${index}`).fill(prompt);
  await page.getByTestId(`sequence-shot-save-${index}`).click();
  await expect(page.getByTestId(`sequence-shot-prompt-${index}`)).toHaveText(prompt);
}

/** Continues shot `index` as image-to-video from its last frame: a new shot right after it. */
async function continueShot(page: Page, index: number) {
  await page.getByTestId(`sequence-shot-continue-${index}`).click();
  await page.getByTestId(`sequence-continue-i2v-${index}`).click();
  // continuing takes the shot's last frame with ffmpeg first
  await expect(page.getByTestId('sequence-strip').locator(':scope > li')).toHaveCount(index + 2, {
    timeout: MEDIA_WAIT,
  });
  await expect(page.getByTestId(`sequence-shot-${index + 1}`)).toHaveAttribute('data-origin', 'continue');
  await expect(page.getByTestId('sequence-error')).toHaveCount(0);
}

/**
 * The sha256 of the exact last frame of the library's result of `prompt` (downloaded as the page
 * plays it, the frame taken as the core takes it).
 */
async function lastFrameSha256Of(page: Page, prompt: string, name: string): Promise<string> {
  await page.getByTestId('nav-library').click();
  const card = page.getByTestId('library-card').filter({ hasText: prompt });
  await expect(card).toHaveCount(1);
  await card.getByTestId('library-open').click();
  await expect(page.getByTestId('detail-verified')).toBeVisible({ timeout: MEDIA_WAIT });
  const src = (await page.getByTestId('detail-player').getAttribute('src'))!;
  await page.keyboard.press('Escape');
  const res = await page.request.get(new URL(src, world.origin).toString());
  expect(res.status()).toBe(200);
  const dir = path.join(world.dir, 'frames');
  mkdirSync(dir, { recursive: true });
  const video = path.join(dir, `${name}.mp4`);
  writeFileSync(video, await res.body());
  const png = path.join(dir, `${name}-last.png`);
  await extractLastFrame(video, png);
  return createHash('sha256').update(readFileSync(png)).digest('hex');
}

test('a three-shot sequence: generated, continued twice from exact last frames sent as signed readUrls, assembled and played', async () => {
  test.setTimeout(480_000);
  const prompts = [
    'A lighthouse at dusk, waves rolling against the rocks',
    'The lighthouse lamp turns on, its beam sweeping the sea',
    'The beam reaches a small boat heading home',
  ];
  await member.getByTestId('nav-sequences').click();
  await member.getByTestId('sequence-new-name').fill('Lighthouse at dusk');
  await member.getByTestId('sequence-create').click();
  await expect(member.getByTestId('sequence-name')).toHaveText('Lighthouse at dusk');

  // one text-to-video shot of 5 s, generated
  await member.getByTestId('sequence-shot-prompt').fill(prompts[0]!);
  await member.getByTestId('sequence-shot-seconds').selectOption('5');
  await member.getByTestId('sequence-add-shot').click();
  await expect(member.getByTestId('sequence-shot-prompt-0')).toHaveText(prompts[0]!);
  await generateShot(member, 0);

  // continued twice: each new shot starts from the exact last frame of the one before
  for (const index of [0, 1]) {
    await continueShot(member, index);
    await promptShot(member, index + 1, prompts[index + 1]!);
    await expect
      .poll(() =>
        member
          .getByTestId(`sequence-shot-poster-${index + 1}`)
          .evaluate((img: { naturalWidth: number }) => img.naturalWidth),
      )
      .toBeGreaterThan(0);
    await generateShot(member, index + 1);
  }
  expect(await strip(member)).toEqual([
    { origin: 'new', state: 'succeeded' },
    { origin: 'continue', state: 'succeeded' },
    { origin: 'continue', state: 'succeeded' },
  ]);
  await member.getByTestId('sequence-strip').scrollIntoViewIfNeeded();
  await member.screenshot({ path: 'test-results/screenshots/platform-sequence-strip.png' });

  // the runtime read each first frame — the previous shot's last frame, kept in the member's
  // storage — through the backend's signed readUrl of that object
  const objectReads = world.backendRequests().filter((line) => line.startsWith('GET /objects/'));
  for (const index of [0, 1]) {
    const sha256 = await lastFrameSha256Of(member, prompts[index]!, `shot-${index + 1}`);
    expect(
      objectReads.some((line) => new RegExp(`^GET /objects/[0-9a-f]{32}/${sha256} 200$`).test(line)),
    ).toBe(true);
  }

  // assembled, and the assembly plays
  await member.getByTestId('nav-sequences').click();
  const item = member.getByTestId('sequence-item').filter({ hasText: 'Lighthouse at dusk' });
  if (await item.count()) await item.getByTestId('sequence-open').click();
  await expect(member.getByTestId('sequence-name')).toHaveText('Lighthouse at dusk');
  await expect(member.getByTestId('sequence-assemble')).toBeEnabled();
  const player = await assembleAndLoad(member);
  await expect(member.getByTestId('sequence-assembly-current')).toHaveAttribute('data-current', 'true');
  await expect(member.getByTestId('sequence-chapter')).toHaveText([/^Shot 1/, /^Shot 2/, /^Shot 3/]);
  // the file the page plays is the assembly it names
  const res = await member.request.get(new URL((await player.getAttribute('src'))!, world.origin).toString());
  expect(res.status()).toBe(200);
  await expect(member.getByTestId('sequence-assembly-sha256')).toHaveText(
    createHash('sha256')
      .update(await res.body())
      .digest('hex'),
  );
  await member.getByTestId('sequence-chapters').scrollIntoViewIfNeeded();
  await member.screenshot({ path: 'test-results/screenshots/platform-sequence.png' });
});
