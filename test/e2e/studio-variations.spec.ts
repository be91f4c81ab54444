import { expect, test } from './studio-host';
import { chooseMode, freshDraft, simulatorKeys } from './studio-media';
import { MEDIA_WAIT } from './waits';

const PROMPT = 'A paper lantern rising over a night harbour';

test('Generate ×3: a double click creates exactly three jobs, one group in the Queue and the Library', async ({
  signedIn: page,
}) => {
  const keysBefore = new Set((await simulatorKeys(page)).map((k) => k.idempotencyKey));
  await freshDraft(page);
  await chooseMode(page, 't2v');
  // disabled by the same blockers as Generate (here: the empty prompt)
  await expect(page.getByTestId('generate-variations')).toBeDisabled();
  await page.getByTestId('prompt').fill(PROMPT);
  await page.getByTestId('variations-count').selectOption('3');
  await expect(page.getByTestId('generate-variations')).toHaveText('Generate ×3');
  await expect(page.getByTestId('generate-variations')).toBeEnabled();

  await page.getByTestId('generate-variations').dblclick();
  await expect(page.getByTestId('submit-status')).toContainText('3 variations submitted', {
    timeout: MEDIA_WAIT,
  });
  // the draft is read-only now: neither Generate nor Generate ×N can be pressed again
  await expect(page.getByTestId('draft-submitted')).toBeVisible();
  await expect(page.getByTestId('generate-variations')).toBeDisabled();
  await expect(page.getByTestId('generate')).toBeDisabled();

  // exactly three jobs at the simulator, each created once, under keys .v0 .v1 .v2 of one draft key
  const created = (await simulatorKeys(page)).filter((k) => !keysBefore.has(k.idempotencyKey));
  expect(created.map((k) => k.created)).toEqual([1, 1, 1]);
  const suffixes = created.map((k) => k.idempotencyKey.slice(k.idempotencyKey.lastIndexOf('.'))).sort();
  expect(suffixes).toEqual(['.v0', '.v1', '.v2']);
  expect(new Set(created.map((k) => k.idempotencyKey.slice(0, k.idempotencyKey.lastIndexOf('.')))).size).toBe(
    1,
  );

  // the Queue shows them as one group, under one header
  await page.getByTestId('open-queue').click();
  const group = page.getByTestId('variation-group').filter({ hasText: PROMPT });
  await expect(group).toHaveCount(1);
  await expect(group.getByTestId('variation-group-title')).toHaveText(`Variations of “${PROMPT}” ×3`);
  await expect(group.getByTestId('job-row')).toHaveCount(3);
  await expect(page.getByTestId('job-row').filter({ hasText: PROMPT })).toHaveCount(3);
  await expect(group.getByTestId('job-verified')).toHaveCount(3, { timeout: 60_000 });
  await page.screenshot({ path: 'test-results/screenshots/variations-queue.png' });
  const groupId = (await group.getAttribute('data-group-id'))!;

  // the Library marks them as a group; "Show its group" leaves only them, any two compare
  await page.getByTestId('nav-library').click();
  const cards = page.locator(`[data-testid="library-card"][data-group-id="${groupId}"]`);
  await expect(cards).toHaveCount(3);
  expect((await cards.getByTestId('library-variation').allTextContents()).sort()).toEqual([
    'Variation 1/3',
    'Variation 2/3',
    'Variation 3/3',
  ]);
  await cards.first().getByTestId('library-show-group').click();
  await expect(page.getByTestId('library-group-filter')).toContainText('×3');
  await expect(page.getByTestId('library-card')).toHaveCount(3);
  await page.getByTestId('library-card').nth(0).getByTestId('library-select').click();
  await page.getByTestId('library-card').nth(2).getByTestId('library-select').click();
  await page.getByTestId('compare-selected').click();
  await expect(page.getByTestId('library-compare')).toBeVisible();
  await page.screenshot({ path: 'test-results/screenshots/variations-library-compare.png' });
  await page.keyboard.press('Escape');
  await page.getByTestId('library-group-clear').click();
  await expect(page.getByTestId('library-group-filter')).toHaveCount(0);

  // still three: nothing above created another job
  const after = (await simulatorKeys(page)).filter((k) => !keysBefore.has(k.idempotencyKey));
  expect(after.map((k) => k.created)).toEqual([1, 1, 1]);
});
