import type { Page } from '@playwright/test';
import { violations } from './accessibility';
import { expect, test } from './studio-host';
import { generateT2v } from './studio-media';
import { MEDIA_WAIT } from './waits';

interface Decoded {
  complete: boolean;
  naturalWidth: number;
  currentSrc: string;
}

async function t2v(page: Page, prompt: string, seconds: number, seed: number): Promise<string> {
  return generateT2v(page, prompt, seconds, seed, `cards-${seed}`);
}

test('a Library card shows its facts, scrubs through frames on hover, two toggles open Compare, and keys mark it', async ({
  signedIn: page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const a = await t2v(page, 'A paper kite over the dunes at noon', 6, 11);
  const b = await t2v(page, 'A paper kite over the sea at dusk', 5, 12);
  const model = (await page.getByTestId('job-meta').first().textContent())!.split(' · ')[0]!;

  await page.getByTestId('nav-library').click();
  const card = (rowId: string) => page.locator(`[data-testid="library-card"][data-row-id="${rowId}"]`);
  await expect(card(a)).toBeVisible();

  // the facts a creator scans by
  await expect(card(a).getByTestId('card-duration')).toHaveText('6s');
  await expect(card(b).getByTestId('card-duration')).toHaveText('5s');
  await expect(card(a).getByTestId('card-model')).toHaveText(model);
  await expect(card(a).getByTestId('card-mode')).toHaveText('Text to video');
  await expect(card(a).getByTestId('card-verified')).toHaveText('✓ Verified');
  const when = await card(a).getByTestId('card-date').getAttribute('datetime');
  expect(Math.abs(Date.parse(when!) - Date.now())).toBeLessThan(10 * 60_000);
  await expect(card(a).getByTestId('card-date')).toContainText(String(new Date().getFullYear()));

  // the poster until the pointer moves across the picture: then the frame for that position
  const preview = card(a).getByTestId('library-preview');
  await expect(preview).toHaveAttribute('src', /\/poster\?s=/);
  const box = (await preview.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + 4, y);
  await expect(preview).toHaveAttribute('src', /\/library\/\d+\/\d+\/frame\/0\?s=/);
  await expect(preview).toHaveAttribute('data-frame', '0');
  const decoded = () =>
    preview.evaluate((img: Decoded) => ({
      ok: img.complete && img.naturalWidth > 0,
      src: img.currentSrc,
    }));
  await expect.poll(async () => (await decoded()).ok, { timeout: MEDIA_WAIT }).toBe(true);
  expect((await decoded()).src).toMatch(/\/frame\/0\?/);
  await page.mouse.move(box.x + box.width - 4, y, { steps: 8 });
  await expect(preview).toHaveAttribute('src', /\/frame\/5\?s=/);
  await expect.poll(async () => (await decoded()).ok, { timeout: MEDIA_WAIT }).toBe(true);
  await page.mouse.move(box.x + box.width / 2 + 2, y);
  await expect(preview).toHaveAttribute('src', /\/frame\/3\?s=/);
  await page.screenshot({ path: 'test-results/screenshots/library-cards-scrub.png' });
  // leaving restores the poster
  await page.mouse.move(5, 5);
  await expect(preview).toHaveAttribute('src', /\/poster\?s=/);

  // keyboard focus on the picture plays through the frames too; leaving it restores the poster
  await card(a).getByTestId('library-mark-pick').focus();
  await page.keyboard.press('Shift+Tab');
  await expect(card(a).getByTestId('library-open')).toBeFocused();
  await expect(preview).toHaveAttribute('src', /\/frame\/\d\?s=/);
  await page.keyboard.press('Tab');
  await expect(preview).toHaveAttribute('src', /\/poster\?s=/);

  // Compare: a toggle on each card and a bar that says what is selected
  await expect(page.getByTestId('compare-bar')).toHaveCount(0);
  const toggleA = card(a).getByRole('button', { name: 'Select to compare' });
  await expect(toggleA).toHaveAttribute('aria-pressed', 'false');
  await toggleA.focus();
  await page.keyboard.press('Enter');
  await expect(toggleA).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('compare-count')).toHaveText('1 selected · select one more to compare');
  await expect(page.getByTestId('compare-selected')).toBeDisabled();
  await card(b).getByTestId('library-select').click();
  await expect(card(b).getByTestId('library-select')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('compare-count')).toHaveText('2 selected');
  await expect(page.getByTestId('compare-selected')).toBeEnabled();
  await page.mouse.move(box.x + box.width * 0.3, y);
  await expect(preview).toHaveAttribute('src', /\/frame\/1\?s=/);
  await expect.poll(async () => (await decoded()).ok, { timeout: MEDIA_WAIT }).toBe(true);
  await page.screenshot({ path: 'test-results/screenshots/library-cards.png' });
  await page.mouse.move(5, 5);
  expect(await violations(page)).toEqual([]);

  await page.getByTestId('compare-selected').click();
  await expect(page.getByTestId('library-compare')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('library-compare')).toBeHidden();

  // Clear empties the selection and hides the bar
  await page.getByTestId('compare-clear').click();
  await expect(page.getByTestId('compare-bar')).toHaveCount(0);
  await expect(card(a).getByTestId('library-select')).toHaveAttribute('aria-pressed', 'false');
  await expect(card(b).getByTestId('library-select')).toHaveAttribute('aria-pressed', 'false');

  // marks by single keys on the focused card (issue 41): P pick, X reject, 0–5 stars
  await card(a).getByTestId('library-open').focus();
  await page.keyboard.press('p');
  await page.keyboard.press('4');
  await expect(card(a).getByTestId('library-mark-pick')).toHaveAttribute('aria-pressed', 'true');
  await expect(card(a)).toHaveAttribute('data-stars', '4');
  await expect(card(a).getByRole('button', { name: '4 stars' })).toHaveAttribute('aria-pressed', 'true');
  await card(b).getByTestId('library-open').focus();
  await page.keyboard.press('x');
  await expect(card(b)).toHaveAttribute('data-flag', 'reject');
  // the worker's signed-in world holds other specs' results (some marked): counted on these two
  await page.getByTestId('library-search').fill('A paper kite over the');
  await expect(page.getByTestId('library-card')).toHaveCount(2);
  await expect(page.getByTestId('library-mark-counts')).toContainText(
    '2 shown · 1 picked · 1 rejected · 1 rated',
  );
  // the buttons mark too: unflag b by pressing its Reject again
  await card(b).getByTestId('library-mark-reject').click();
  await expect(card(b)).toHaveAttribute('data-flag', 'unmarked');
  // filters by marks: picks with 4 stars and up show a alone; unmarked shows b, not a
  await page.getByTestId('filter-flag').selectOption('pick');
  await page.getByTestId('filter-minStars').selectOption('4');
  await expect(page.getByTestId('library-card')).toHaveCount(1);
  await expect(card(a)).toBeVisible();
  await page.getByTestId('filter-minStars').selectOption('');
  await page.getByTestId('filter-flag').selectOption('unmarked');
  await expect(card(b)).toBeVisible();
  await expect(card(a)).toHaveCount(0);
  await page.getByTestId('filter-flag').selectOption('');
  await expect(card(a)).toBeVisible();
  await expect(card(b)).toBeVisible();
  await page.getByTestId('library-search').fill('');
  // kept: the Library opened again reads them from the journal
  await page.getByTestId('nav-create').click();
  await page.getByTestId('nav-library').click();
  await expect(card(a)).toHaveAttribute('data-flag', 'pick');
  await expect(card(a)).toHaveAttribute('data-stars', '4');

  // the dark theme, with the bar showing: still no violation
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('theme-dark').click();
  await page.getByTestId('nav-library').click();
  await card(a).getByTestId('library-select').click();
  await expect(page.getByTestId('compare-bar')).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/screenshots/library-cards-dark.png' });
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('theme-system').click();
});
