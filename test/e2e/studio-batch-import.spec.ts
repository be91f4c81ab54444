import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from './studio-host';
import { chooseMode, freshDraft, simulatorKeys } from './studio-media';

test.describe.configure({ mode: 'serial' });

const tag = `Batch ${Date.now().toString(36)}`;
const dir = mkdtempSync(path.join(os.tmpdir(), 'fw-e2e-batch-'));
const file = (name: string, text: string) => {
  const target = path.join(dir, name);
  writeFileSync(target, text);
  return target;
};
const batchKeys = async (page: Parameters<typeof simulatorKeys>[0]) =>
  (await simulatorKeys(page)).filter((k) => k.idempotencyKey.startsWith('fw-batch-'));

test('Import prompts: 3 prompts and a duplicate → 3 jobs in the Queue; the same file again is already sent, nothing new', async ({
  signedIn: page,
}) => {
  const prompts = file(
    'prompts.txt',
    `# three prompts\n${tag}: a red fox in fresh snow\n${tag}: a blue whale, singing\n${tag}: a red fox in fresh snow\n${tag}: a green parrot\n`,
  );
  await freshDraft(page);
  await chooseMode(page, 't2v');
  const before = await batchKeys(page);

  await page.getByTestId('batch-file').setInputFiles(prompts);
  const dialog = page.getByTestId('batch-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('batch-row')).toHaveCount(4);
  await expect(dialog.locator('[data-testid="batch-row"][data-state="new"]')).toHaveCount(3);
  await expect(dialog.locator('[data-testid="batch-row"][data-state="duplicate"]')).toHaveCount(1);
  await expect(dialog.locator('[data-row="4"] [data-testid="batch-row-status"]')).toContainText('row 2');
  await expect(dialog.getByTestId('batch-summary')).toContainText('3 new video job');
  await expect(dialog.getByTestId('batch-generate')).toHaveText('Generate 3');
  await expect(dialog.getByTestId('batch-generate')).toBeEnabled();
  await page.screenshot({ path: 'test-results/screenshots/studio-batch-import.png' });

  await dialog.getByTestId('batch-generate').click();
  // straight to the Queue, where the three jobs run live
  await expect(page.getByTestId('job-row').filter({ hasText: tag })).toHaveCount(3);
  const created = await batchKeys(page);
  expect(created.length).toBe(before.length + 3);
  expect(created.every((k) => k.created === 1)).toBe(true);

  // the same file again: every row already sent, nothing to generate, nothing created
  await page.getByTestId('nav-create').click();
  await page.getByTestId('batch-file').setInputFiles(prompts);
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('[data-testid="batch-row"][data-state="already_sent"]')).toHaveCount(3);
  await expect(dialog.locator('[data-testid="batch-row"][data-state="duplicate"]')).toHaveCount(1);
  await expect(dialog.getByTestId('batch-generate')).toBeDisabled();
  await expect(dialog.getByTestId('batch-generate-reason')).toContainText('already sent');
  await page.screenshot({ path: 'test-results/screenshots/studio-batch-import-again.png' });
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  expect(await batchKeys(page)).toEqual(created);
  await page.getByTestId('nav-queue').click();
  await expect(page.getByTestId('job-row').filter({ hasText: tag })).toHaveCount(3);
});

test('Import prompts again as a named new run with a job limit: 2 now, the third at the next import, each once', async ({
  signedIn: page,
}) => {
  const runTag = `${tag} run`;
  const prompts = file(
    'again.txt',
    `${runTag}: a lantern on a jetty\n${runTag}: a kite over dunes\n${runTag}: a lantern on a jetty\n${runTag}: an owl at noon\n`,
  );
  await freshDraft(page);
  await chooseMode(page, 't2v');
  const dialog = page.getByTestId('batch-dialog');
  const rows = (state: string) => dialog.locator(`[data-testid="batch-row"][data-state="${state}"]`);

  // the first run, whole
  await page.getByTestId('batch-file').setInputFiles(prompts);
  await expect(rows('new')).toHaveCount(3);
  await dialog.getByTestId('batch-generate').click();
  await expect(page.getByTestId('job-row').filter({ hasText: runTag })).toHaveCount(3);
  const firstRun = await batchKeys(page);

  // the same file: nothing new, until a new run is named; the limit leaves one row for later
  await page.getByTestId('nav-create').click();
  await page.getByTestId('batch-file').setInputFiles(prompts);
  await expect(rows('already_sent')).toHaveCount(3);
  await expect(dialog.getByTestId('batch-generate')).toBeDisabled();
  await dialog.getByTestId('batch-run-label').fill('take 2');
  await expect(rows('new')).toHaveCount(3);
  await expect(dialog.getByTestId('batch-generate')).toHaveText('Generate 3');
  await dialog.getByTestId('batch-max-jobs').fill('0');
  await expect(dialog.getByTestId('batch-generate')).toBeDisabled();
  await expect(dialog.getByTestId('batch-generate-reason')).toContainText('1 to');
  await dialog.getByTestId('batch-max-jobs').fill('2');
  await expect(rows('new')).toHaveCount(2);
  await expect(rows('capped')).toHaveCount(1);
  await expect(rows('duplicate')).toHaveCount(1);
  await expect(dialog.getByTestId('batch-summary')).toContainText('2 new video job');
  await expect(dialog.getByTestId('batch-summary')).toContainText('past the job limit');
  await expect(dialog.getByTestId('batch-generate')).toHaveText('Generate 2');
  await page.screenshot({ path: 'test-results/screenshots/studio-batch-import-new-run.png' });
  await dialog.getByTestId('batch-generate').click();
  await expect(page.getByTestId('job-row').filter({ hasText: runTag })).toHaveCount(5);
  const secondRun = await batchKeys(page);
  expect(secondRun.length).toBe(firstRun.length + 2);

  // the same run again, no limit: only the row the limit left is new
  await page.getByTestId('nav-create').click();
  await page.getByTestId('batch-file').setInputFiles(prompts);
  await dialog.getByTestId('batch-run-label').fill('take 2');
  await expect(rows('already_sent')).toHaveCount(2);
  await expect(rows('new')).toHaveCount(1);
  await dialog.getByTestId('batch-generate').click();
  await expect(page.getByTestId('job-row').filter({ hasText: runTag })).toHaveCount(6);
  const thirdRun = await batchKeys(page);
  expect(thirdRun.length).toBe(firstRun.length + 3);
  expect(thirdRun.every((k) => k.created === 1)).toBe(true);
});

test('Import prompts: a row of 7001 code points is named and Generate is disabled with the reason', async ({
  signedIn: page,
}) => {
  const bad = file('bad.txt', `${tag}: a lighthouse at dusk\n${'x'.repeat(7001)}\n`);
  await freshDraft(page);
  await chooseMode(page, 't2v');
  const before = await batchKeys(page);
  await page.getByTestId('batch-file').setInputFiles(bad);
  const dialog = page.getByTestId('batch-dialog');
  await expect(dialog.getByTestId('batch-row')).toHaveCount(2);
  await expect(
    dialog.locator('[data-row="2"][data-state="invalid"] [data-code="prompt.too_long"]'),
  ).toBeVisible();
  await expect(dialog.getByTestId('batch-generate')).toBeDisabled();
  await expect(dialog.getByTestId('batch-generate-reason')).toContainText('1 row(s) have problems');
  await page.keyboard.press('Escape');
  expect(await batchKeys(page)).toEqual(before);

  // other modes say that import is text-to-video only
  await chooseMode(page, 'i2v');
  await expect(page.getByTestId('batch-import')).toBeDisabled();
  await expect(page.getByTestId('batch-t2v-only')).toBeVisible();
});
