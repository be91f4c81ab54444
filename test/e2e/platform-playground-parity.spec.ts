import { expect, test, type Page } from '@playwright/test';
import { playgroundFiles, recordStreamedTexts, streamedTexts } from './playground-fixtures';
import { usePlatformWorld, type PlatformWorld } from './platform-world';
import { MEDIA_WAIT } from './waits';

/**
 * The Playground on the platform (`serve --platform` over `framewright simulator`), in Chromium, as
 * a member: every panel the runtime offers gives its result on the page — a chat with an attached
 * image whose reply streams, embeddings, rerank, OCR, transcription and a parsed document filed in
 * the person's library.
 */
let world: PlatformWorld;
let member: Page;

usePlatformWorld('platform-playground', async (opened, browser) => {
  world = opened;
  member = await world.openAs(browser, 'member');
  await member.getByTestId('nav-playground').click();
});

async function openPanel(tab: string): Promise<void> {
  await member.getByTestId('nav-playground').click();
  await member.getByTestId(`pg-tab-${tab}`).click();
}

const shot = (panel: string) =>
  member.screenshot({ path: `test-results/screenshots/platform-playground-${panel}.png`, fullPage: true });

test('chat: an attached image travels to a vision model and the reply streams', async () => {
  await openPanel('chat');
  await member.getByTestId('chat-model').selectOption('atlas-vision');
  // the runtime takes media only as readUrls: no inline choice is offered
  await expect(member.getByRole('checkbox', { name: 'Send images inline' })).toHaveCount(0);
  await member.getByTestId('chat-attach').setInputFiles(playgroundFiles().png);
  await expect(member.getByTestId('chat-attachments')).toContainText('page.png');
  await member.getByTestId('chat-input').fill('What is in this picture?');
  await recordStreamedTexts(member);
  await member.getByTestId('chat-send').click();
  await expect(member.getByTestId('chat-streaming')).toBeVisible();
  await shot('chat-streaming');
  await expect(member.getByTestId('chat-streaming')).toBeHidden({ timeout: MEDIA_WAIT });
  const reply = member.getByTestId('chat-message-assistant');
  await expect(reply).toHaveCount(1);
  await expect(reply).toContainText('1 attached media item');
  const whole = (await reply.textContent()) ?? '';
  // more than one delta before the end: several shown texts of growing length, each a prefix
  const shown = await streamedTexts(member);
  expect(new Set(shown.map((t) => t.length)).size).toBeGreaterThan(1);
  for (const text of shown) expect(whole.startsWith(text.trimEnd())).toBe(true);
  await shot('chat');
});

test('embeddings: vectors and a similarity matrix', async () => {
  await openPanel('embeddings');
  await member.getByTestId('embed-input').fill('a lighthouse at dusk\na lighthouse at night\nbread recipe');
  await member.getByTestId('embed-run').click();
  const result = member.getByTestId('embed-result');
  await expect(result).toContainText(/3 vector\(s\) of \d+ dimensions/, { timeout: MEDIA_WAIT });
  await expect(result.locator('tbody tr')).toHaveCount(3);
  await expect(result.locator('tbody tr').first().locator('td').first()).toHaveText('1.00');
  // the billed call is journaled and listed under the panel, without its texts
  const history = member.getByTestId('pg-history').locator('li');
  await expect(history).toHaveCount(1);
  await expect(history.first()).toHaveAttribute('data-state', 'succeeded');
  await expect(member.getByTestId('pg-history')).not.toContainText('lighthouse');
  await shot('embeddings');
});

test('rerank: documents from a CSV file, ranked', async () => {
  await openPanel('rerank');
  await member.getByTestId('rerank-query').fill('lighthouse coast');
  await member.getByTestId('rerank-file').setInputFiles(playgroundFiles().csv);
  await expect(member.getByTestId('rerank-loaded').locator('li')).toHaveCount(3);
  await member.getByTestId('rerank-topn').fill('2');
  await member.getByTestId('rerank-run').click();
  const results = member.getByTestId('rerank-results').locator('li');
  await expect(results.first()).toContainText('a lighthouse, on the coast at dusk', { timeout: MEDIA_WAIT });
  await expect(results).toHaveCount(2);
  await shot('rerank');
});

test('OCR: the text of an image', async () => {
  await openPanel('ocr');
  await member.getByTestId('ocr-task').selectOption('ocr');
  await member.getByTestId('ocr-file').setInputFiles(playgroundFiles().png);
  await expect(member.getByTestId('ocr-json')).toContainText('SIMULATED OCR', { timeout: MEDIA_WAIT });
  await expect(member.getByTestId('ocr-box').first()).toBeAttached();
  await shot('ocr');
});

test('transcription: the text of an audio file, in timed segments', async () => {
  await openPanel('transcription');
  await member.getByTestId('transcribe-language').selectOption('en');
  await member.getByTestId('transcribe-file').setInputFiles(playgroundFiles().wav);
  const segments = member.getByTestId('transcribe-segment');
  await expect(segments.first()).toBeVisible({ timeout: MEDIA_WAIT });
  expect(await segments.count()).toBeGreaterThan(0);
  await expect(segments.first()).toContainText('0:00.0');
  await shot('transcription');
});

test('document parse: the markdown of a PDF, its files in the person’s library', async () => {
  await openPanel('parse');
  // the options travel in the runtime job's mediaSpec: a page range, a language and a preset
  await member.getByTestId('parse-language').selectOption('en');
  await member.getByTestId('parse-start').fill('2');
  await member.getByTestId('parse-end').fill('4');
  await member.getByTestId('parse-preset').selectOption('hybrid-high');
  await member.getByTestId('parse-file').setInputFiles(playgroundFiles().pdf);
  const result = member.getByTestId('parse-result');
  await expect(result).toContainText('3 page(s) parsed', { timeout: 60_000 });
  await expect(result).toContainText('## Page 4');
  await expect(result).not.toContainText('## Page 1');
  await expect(member.getByTestId('parse-folder')).toContainText('library');
  await shot('parse');
  // the runtime job's result is in the person's library: a card named by its document, no broken
  // poster, and a detail that opens the parsed JSON (no player, no signed read URL on the page)
  await member.getByTestId('nav-library').click();
  const card = member.getByTestId('library-card').filter({ hasText: 'report.pdf' });
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId('card-verified')).toBeVisible();
  await expect(card.getByTestId('library-preview')).toHaveCount(0);
  await shot('parse-library');
  await card.getByTestId('library-open').click();
  const detail = member.getByTestId('library-detail');
  await expect(detail.getByTestId('detail-player')).toHaveCount(0);
  await expect(detail.getByTestId('detail-copy')).toHaveCount(0);
  await expect(detail).not.toContainText('sig=');
  const href = (await detail.getByTestId('detail-document').getAttribute('href'))!;
  const parsed = await member.request.get(`${world.origin}${href}`);
  expect(parsed.status()).toBe(200);
  expect(JSON.stringify(await parsed.json())).toContain('## Page 4');
  await shot('parse-detail');
  await member.keyboard.press('Escape');
});
