import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Locator, Page } from '@playwright/test';
import { violations } from './accessibility';
import { expect, test } from './studio-host';
import { chooseMode, freshDraft } from './studio-media';
import { MEDIA_WAIT } from './waits';

/**
 * Reviewing takes offline (issue 41) in Chromium through the loopback host: twelve results
 * reviewed in the full-screen reviewer by keyboard only (picks, stars, two notes at frames, one
 * with an area marked by the keys; the offline test drags one with the mouse), a collection of
 * the picks turned into a sequence, the "picked, 4 stars and up" filter, axe-core in both themes;
 * then the Library and the reviewer with every route but the loopback host blocked and the
 * simulator unavailable.
 */

/** Generates `count` variations of a t2v prompt and waits until the Queue shows them verified. */
async function variations(page: Page, prompt: string, count: number): Promise<void> {
  await freshDraft(page);
  await chooseMode(page, 't2v');
  await page.getByTestId('prompt').fill(prompt);
  await page.getByTestId('field-seconds-input').fill('5');
  await page.getByTestId('variations-count').selectOption(String(count));
  await page.getByTestId('generate-variations').click();
  await expect(page.getByTestId('submit-status')).toContainText(`${count} variations submitted`, {
    timeout: MEDIA_WAIT,
  });
  await page.getByTestId('open-queue').click();
  const group = page.getByTestId('variation-group').filter({ hasText: prompt });
  await expect(group.getByTestId('job-verified')).toHaveCount(count, { timeout: 120_000 });
}

/** The Library searched for `query` (the worker's host may hold other specs' results). */
async function library(page: Page, query: string, count: number): Promise<Locator> {
  await page.getByTestId('nav-library').click();
  await page.getByTestId('library-search').fill(query);
  const cards = page.getByTestId('library-card');
  await expect(cards).toHaveCount(count);
  return cards;
}

/** Waits until the reviewer's player can show frames (its duration is known). */
async function playerReady(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page
          .getByTestId('reviewer-player')
          .evaluate((v) => (v as unknown as { readyState: number; duration: number }).readyState),
      { timeout: MEDIA_WAIT },
    )
    .toBeGreaterThanOrEqual(2);
}

const TAG = 'Rv41';

test('twelve takes reviewed by keyboard in the full-screen reviewer; picks become a collection and a sequence', async ({
  signedIn: page,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1366, height: 900 });
  await variations(page, `${TAG} A lighthouse keeper climbs the stairs at dusk`, 8);
  await variations(page, `${TAG} A fishing boat leaves the harbour at dawn`, 4);
  const cards = await library(page, TAG, 12);
  const ids = await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-row-id')!));

  // Enter on the first card opens the reviewer over the twelve, at that card
  await cards.first().getByTestId('library-open').focus();
  await page.keyboard.press('Enter');
  const reviewer = page.getByRole('dialog', { name: 'Reviewing take 1 of 12' });
  await expect(reviewer).toBeVisible();
  await expect(reviewer).toHaveAttribute('aria-modal', 'true');
  await expect(reviewer).toBeFocused();
  await expect(page.getByTestId('reviewer')).toHaveAttribute('data-row-id', ids[0]!);
  await expect(page.getByTestId('reviewer-prompt')).toContainText(TAG);
  await expect(page.getByTestId('reviewer-seed')).not.toHaveText('…');
  // ? lists the keys
  await page.keyboard.press('Shift+Slash');
  await expect(page.getByTestId('reviewer-shortcuts')).toBeVisible();
  await expect(page.getByTestId('reviewer-shortcuts')).toContainText('Next take');
  await page.keyboard.press('Shift+Slash');
  await expect(page.getByTestId('reviewer-shortcuts')).toHaveCount(0);

  // the marks of each take, typed as fast as Playwright types, each followed at once by →
  const plan: Record<number, string[]> = {
    0: ['p', '5'],
    1: ['x'],
    2: ['p', '4'],
    3: ['2'],
    4: ['p', '3'],
    5: ['x', '1'],
    6: ['p', '4'],
    7: ['3'],
    8: ['x'],
    9: ['4'],
    10: ['u', '5'],
    11: ['1'],
  };
  for (let i = 0; i < 12; i++) {
    await expect(page.getByTestId('reviewer')).toHaveAttribute('data-row-id', ids[i]!);
    for (const key of plan[i]!) await page.keyboard.press(key);
    if (i === 0) {
      // notes at frames: on the first take, 12 frames on (0.5 s at 24 fps), N, the text, Enter
      await playerReady(page);
      for (let f = 0; f < 12; f++) await page.keyboard.press('.');
      await expect(page.getByTestId('reviewer-player-time')).toHaveAttribute('data-frame', '12');
      await page.keyboard.press('n');
      await expect(page.getByTestId('note-text-input')).toBeFocused();
      await page.keyboard.type('The hand melts into the rail');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('note')).toHaveCount(1);
      await expect(page.getByTestId('note-marker')).toHaveCount(1);
      await expect(page.getByTestId('note').first()).toHaveAttribute('data-seconds', '0.5');
      // the keys are the reviewer's again
      await expect(reviewer).toBeFocused();
      // A and B loop around the note, C clears it
      await page.keyboard.press('a');
      for (let f = 0; f < 6; f++) await page.keyboard.press('.');
      await page.keyboard.press('b');
      await expect(page.getByTestId('reviewer-loop-range')).toHaveAttribute('data-a', '0.5');
      await expect(page.getByTestId('reviewer-loop-range')).toHaveAttribute('data-b', '0.75');
      await page.keyboard.press('c');
      await expect(page.getByTestId('reviewer-loop-range')).toHaveAttribute('data-a', '');
      // speed by [ and ]
      await page.keyboard.press('[');
      await expect(page.getByTestId('reviewer-speed-0.5')).toHaveAttribute('aria-pressed', 'true');
      await page.keyboard.press(']');
      await expect(page.getByTestId('reviewer-speed-1')).toHaveAttribute('aria-pressed', 'true');
    }
    if (i === 2) {
      // the second note: a second on, N, an area marked by the keys (arrows move it, Shift+arrows
      // resize it, Enter back to the text), the text, Enter
      await playerReady(page);
      for (let f = 0; f < 24; f++) await page.keyboard.press('.');
      await page.keyboard.press('n');
      await expect(page.getByTestId('note-text-input')).toBeFocused();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await expect(page.getByTestId('note-draft-area')).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('note-draft-area-keys')).toBeFocused();
      for (let k = 0; k < 3; k++) await page.keyboard.press('ArrowRight');
      for (let k = 0; k < 5; k++) await page.keyboard.press('Shift+ArrowDown');
      await expect(page.getByTestId('note-draft-area-where')).toHaveText(
        'Area at 41% across, 35% down, 30% wide, 40% high',
      );
      await expect(page.getByTestId('note-rect-draft')).toBeVisible();
      // the arrows moved the area, not the reviewer to another take
      await expect(page.getByTestId('reviewer-player-time')).toHaveAttribute('data-seconds', '1');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('note-text-input')).toBeFocused();
      await page.keyboard.type('The boat’s mast bends here');
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('note')).toHaveCount(1);
      await expect(page.getByTestId('note').first()).toHaveAttribute('data-seconds', '1');
      // at the note's frame its rectangle is on the picture
      await expect(page.getByTestId('note-rect-shown')).toBeVisible();
      await page.screenshot({ path: 'test-results/screenshots/reviewer-note-on-frame.png' });
      // a frame on, it is not; the note's time in the list jumps back to it
      await page.keyboard.press('.');
      await expect(page.getByTestId('note-rect-shown')).toHaveCount(0);
      await page.getByTestId('note-jump').focus();
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('note-rect-shown')).toBeVisible();
      await page.getByTestId('reviewer').focus();
      expect(await violations(page)).toEqual([]);
      await page.screenshot({ path: 'test-results/screenshots/reviewer.png' });
    }
    if (i < 11) await page.keyboard.press('ArrowRight');
  }
  // no save was dropped by a quick next
  await expect(page.getByTestId('reviewer-saving')).toHaveCount(0);
  await expect(page.getByTestId('reviewer-stars')).toHaveAttribute('data-stars', '1');
  // ← goes back: the first take kept its note and marks
  for (let i = 0; i < 11; i++) await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('reviewer')).toHaveAttribute('data-row-id', ids[0]!);
  await expect(page.getByTestId('reviewer-mark-pick')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('reviewer-stars')).toHaveAttribute('data-stars', '5');
  await expect(page.getByTestId('note-text')).toHaveText('The hand melts into the rail');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('reviewer')).toHaveCount(0);

  // every card says what was pressed on it
  const expected = (i: number) => {
    let flag = 'unmarked';
    let stars = '0';
    for (const key of plan[i]!) {
      if (key === 'p') flag = 'pick';
      else if (key === 'x') flag = 'reject';
      else if (key === 'u') flag = 'unmarked';
      else stars = key;
    }
    return { flag, stars };
  };
  const card = (rowId: string) => page.locator(`[data-testid="library-card"][data-row-id="${rowId}"]`);
  for (let i = 0; i < 12; i++) {
    await expect(card(ids[i]!)).toHaveAttribute('data-flag', expected(i).flag);
    await expect(card(ids[i]!)).toHaveAttribute('data-stars', expected(i).stars);
  }

  // "picked, 4 stars and up": exactly takes 1, 3 and 7
  await page.getByTestId('filter-flag').selectOption('pick');
  await page.getByTestId('filter-minStars').selectOption('4');
  await expect(cards).toHaveCount(3);
  expect((await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-row-id')))).sort()).toEqual(
    [ids[0], ids[2], ids[6]].sort(),
  );

  // the picks (four) selected with Ctrl+A, made a collection
  await page.getByTestId('filter-minStars').selectOption('');
  await expect(cards).toHaveCount(4);
  // ordered by rating: more stars first, the newest first among equals
  const newest = await cards.evaluateAll((els) =>
    els.map((el) => ({ id: el.getAttribute('data-row-id')!, stars: Number(el.getAttribute('data-stars')) })),
  );
  await page.getByTestId('filter-sort').selectOption('rating');
  await expect
    .poll(() => cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-row-id')!)))
    .toEqual([...newest].sort((a, b) => b.stars - a.stars).map((c) => c.id));
  await page.getByTestId('filter-sort').selectOption('');
  await expect
    .poll(() => cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-row-id')!)))
    .toEqual(newest.map((c) => c.id));
  await cards.first().getByTestId('library-open').focus();
  await page.keyboard.press('Control+a');
  await expect(page.getByTestId('selection-count')).toHaveText('4 selected');
  await page.getByTestId('selection-new-collection').click();
  // an empty name is refused in place
  await page.getByTestId('collection-name-submit').click();
  await expect(page.getByTestId('collection-name-problem')).toHaveText('Give the collection a name.');
  await page.getByTestId('collection-name').fill(`${TAG} selects`);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('collection-tools')).toContainText(`${TAG} selects · 4 takes`);
  await page.getByTestId('filter-flag').selectOption('');
  await expect(cards).toHaveCount(4);
  const order = () => cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-row-id')!));
  const before = await order();
  // Alt+→ on the first card moves it one place later
  await cards.first().getByTestId('library-open').focus();
  await page.keyboard.press('Alt+ArrowRight');
  await expect.poll(order).toEqual([before[1], before[0], before[2], before[3]]);
  expect(await violations(page)).toEqual([]);

  // a review package of the collection, written beside the library and shown by its folder
  await page.getByTestId('collection-export').click();
  await expect(page.getByTestId('collection-exported')).toContainText('4', { timeout: MEDIA_WAIT });
  await expect(page.getByTestId('collection-export-folder')).toContainText('review-packages');
  await page.getByTestId('collection-export-reveal').click();
  await expect(page.getByTestId('collection-error')).toHaveCount(0);
  // the package opens in a plain browser, with no Framewright: every take, the note, the stills
  const folder = (await page.getByTestId('collection-export-folder').textContent())!.trim();
  const sheet = await page.context().newPage();
  await sheet.goto(pathToFileURL(path.join(folder, 'index.html')).href);
  await expect(sheet.locator('article.take')).toHaveCount(4);
  await expect(sheet.locator('article.take .notes', { hasText: 'The hand melts into the rail' })).toHaveCount(
    1,
  );
  await expect(sheet.locator('article.take video, article.take img').first()).toBeVisible();
  await sheet.screenshot({ path: 'test-results/screenshots/review-package.png', fullPage: true });
  await sheet.close();

  // the collection becomes a sequence of its four takes, opened on the Sequences screen
  await page.getByTestId('collection-to-sequence').click();
  await expect(page.getByTestId('collection-sequence-made')).toContainText(
    'A sequence of 4 shots was made.',
    {
      timeout: MEDIA_WAIT,
    },
  );
  await page.getByTestId('collection-open-sequence').click();
  await expect(page.getByTestId('sequence-name')).toContainText(`${TAG} selects`);

  // the dark theme: the Library with its collection and the reviewer, still no violation
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('theme-dark').click();
  await page.getByTestId('nav-library').click();
  await page.getByTestId('filter-collection').selectOption({ label: `${TAG} selects (4)` });
  await expect(cards).toHaveCount(4);
  expect(await violations(page)).toEqual([]);
  await page.getByTestId('library-review').click();
  await expect(page.getByTestId('reviewer')).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Reviewing take 1 of 4' })).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await page.screenshot({ path: 'test-results/screenshots/reviewer-dark.png' });
  await page.keyboard.press('Escape');
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('theme-system').click();
});

test('with the network blocked but for the loopback host and the simulator unavailable, the Library and reviewer show, play, mark and annotate; nothing is lost', async ({
  signedIn: page,
  studio,
}) => {
  test.setTimeout(240_000);
  const prompt = `${TAG} offline A kite over a winter beach`;
  await variations(page, prompt, 2);
  const origin = new URL(studio.origin);
  await page.context().route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.host === origin.host) return route.continue();
    return route.abort('internetdisconnected');
  });
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('scenario-select').selectOption('unavailable');
  try {
    await page.reload();
    // the page cannot reach anything but its host
    const outside = await page.evaluate(() =>
      fetch('https://example.com/').then(
        () => 'reached',
        () => 'blocked',
      ),
    );
    expect(outside).toBe('blocked');

    const cards = await library(page, `${TAG} offline`, 2);
    await cards.first().getByTestId('library-open').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('reviewer')).toBeVisible();
    await playerReady(page);
    // it plays
    await page.keyboard.press('Space');
    await expect
      .poll(() => page.getByTestId('reviewer-player-time').getAttribute('data-seconds').then(Number), {
        timeout: MEDIA_WAIT,
      })
      .toBeGreaterThan(0.2);
    await page.keyboard.press('Space');
    // it marks and annotates
    await page.keyboard.press('p');
    await page.keyboard.press('4');
    await page.keyboard.press('n');
    // a rectangle dragged with the mouse on the paused frame goes with the note
    const frame = page.getByTestId('reviewer-player-frame');
    const box = (await frame.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height * 0.2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.7, { steps: 6 });
    await page.mouse.up();
    await expect(page.getByTestId('note-rect-draft')).toBeVisible();
    await expect(page.getByTestId('note-text-input')).toBeFocused();
    await page.keyboard.type('Offline: the kite string vanishes');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('note')).toHaveCount(1);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('x');
    await expect(page.getByTestId('reviewer-mark-reject')).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press('Escape');
  } finally {
    if (await page.getByRole('dialog').count()) await page.keyboard.press('Escape');
    await page.context().unroute('**/*');
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('scenario-select').selectOption('');
  }
  // the network back: a fresh page reads every mark and note from the journal
  await page.reload();
  const cards = await library(page, `${TAG} offline`, 2);
  const ids = await cards.evaluateAll((els) => els.map((el) => el.getAttribute('data-row-id')!));
  const card = (rowId: string) => page.locator(`[data-testid="library-card"][data-row-id="${rowId}"]`);
  await expect(card(ids[0]!)).toHaveAttribute('data-flag', 'pick');
  await expect(card(ids[0]!)).toHaveAttribute('data-stars', '4');
  await expect(card(ids[1]!)).toHaveAttribute('data-flag', 'reject');
  await card(ids[0]!).getByTestId('library-open').click();
  await expect(page.getByTestId('library-detail').getByTestId('note-text')).toHaveText(
    'Offline: the kite string vanishes',
  );
  // notes are searched with the prompts
  await page.keyboard.press('Escape');
  await page.getByTestId('library-search').fill('kite string vanishes');
  await expect(page.getByTestId('library-card')).toHaveCount(1);
  await expect(card(ids[0]!)).toBeVisible();
});
