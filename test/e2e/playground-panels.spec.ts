import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { playgroundFiles } from './playground-fixtures';
import { expect, test } from './studio-host';
import { MEDIA_WAIT } from './waits';

async function open(page: Page, tab: string): Promise<void> {
  await page.getByTestId('nav-playground').click();
  await page.getByTestId(`pg-tab-${tab}`).click();
}

interface BrowserDrop {
  DataTransfer: new () => { items: { add(file: unknown): void } };
  DragEvent: new (type: string, init: Record<string, unknown>) => unknown;
  File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
  Uint8Array: typeof Uint8Array;
  atob(data: string): string;
}

/** Drops a real file on a drop zone, as a drag from the desktop does (a DataTransfer holding a File). */
async function dropFile(page: Page, zoneTestId: string, file: string, type: string): Promise<void> {
  const data = readFileSync(file).toString('base64');
  await page.getByTestId(zoneTestId).evaluate(
    (zone, { data, name, type }) => {
      const w = globalThis as unknown as BrowserDrop;
      const binary = w.atob(data);
      const bytes = new w.Uint8Array(binary.length);
      for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
      const transfer = new w.DataTransfer();
      transfer.items.add(new w.File([bytes], name, { type }));
      for (const kind of ['dragover', 'drop'])
        (zone as unknown as { dispatchEvent(e: unknown): void }).dispatchEvent(
          new w.DragEvent(kind, { bubbles: true, cancelable: true, dataTransfer: transfer }),
        );
    },
    { data, name: path.basename(file), type },
  );
}

const numberOf = (page: Page, testId: string, prop: string) =>
  page
    .getByTestId(testId)
    .first()
    .evaluate((el, p) => Number((el as unknown as Record<string, unknown>)[p]), prop);

test('embeddings: dimensions and a cosine matrix; 65 texts are refused', async ({ signedIn: page }) => {
  await open(page, 'embeddings');
  await expect(page.getByTestId('embed-model')).toHaveValue('vector-embed');
  await page.getByTestId('embed-input').fill('a lighthouse at dusk\na lighthouse at night\nbread recipe');
  await expect(page.getByTestId('embed-count')).toHaveText('3 / 64');
  await page.getByTestId('embed-run').click();
  await expect(page.getByTestId('embed-result')).toContainText('3 vector(s) of 256 dimensions');
  await expect(page.getByTestId('embed-result').locator('tbody tr')).toHaveCount(3);
  await expect(page.getByTestId('embed-result').locator('tbody tr').first().locator('td').first()).toHaveText(
    '1.00',
  );
  // the billed call is journaled and listed under the panel at once, without its texts
  const history = page.getByTestId('pg-history').locator('li');
  await expect(history).toHaveCount(1);
  await expect(history.first()).toHaveAttribute('data-state', 'succeeded');
  await expect(history.first()).toContainText('vector-embed');
  await expect(history.first()).toContainText(/req_[0-9a-f]{24}/);
  await expect(page.getByTestId('pg-history')).not.toContainText('lighthouse');
  await page.screenshot({ path: 'test-results/screenshots/playground-embeddings.png' });
  await page.getByTestId('embed-input').fill(Array.from({ length: 65 }, (_, i) => `text ${i}`).join('\n'));
  await expect(page.getByTestId('embed-count')).toHaveClass(/pg-over/);
  await page.getByTestId('embed-run').click();
  await expect(page.getByTestId('embed-error')).toContainText('At most 64 texts');
  // refused before sending: nothing billed, nothing journaled
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(history).toHaveCount(1);
});

test('rerank: documents from a CSV file, ranked with scores; top_n only where supported', async ({
  signedIn: page,
}) => {
  await open(page, 'rerank');
  await expect(page.getByTestId('rerank-topn')).toBeVisible();
  await page.getByTestId('rerank-query').fill('lighthouse coast');
  await page.getByTestId('rerank-file').setInputFiles(playgroundFiles().csv);
  await expect(page.getByTestId('rerank-loaded').locator('li')).toHaveCount(3);
  await expect(page.getByTestId('rerank-doc-count')).toHaveText('3 / 256');
  await page.getByTestId('rerank-topn').fill('2');
  await page.getByTestId('rerank-run').click();
  const results = page.getByTestId('rerank-results').locator('li');
  await expect(results).toHaveCount(2);
  await expect(results.first()).toContainText('a lighthouse, on the coast at dusk');
  await page.screenshot({ path: 'test-results/screenshots/playground-rerank.png' });
  await page.getByTestId('rerank-model').selectOption('vector-rerank-lite');
  await expect(page.getByTestId('rerank-topn')).toHaveCount(0);
});

test('OCR: a dropped image, the model JSON as it came and boxes over the image', async ({
  signedIn: page,
}) => {
  await open(page, 'ocr');
  await page.getByTestId('ocr-task').selectOption('ocr');
  await page.getByTestId('ocr-file').setInputFiles(playgroundFiles().png);
  await expect(page.getByTestId('ocr-json')).toContainText('SIMULATED OCR');
  await expect(page.getByTestId('ocr-box').first()).toBeAttached();
  expect(await page.getByTestId('ocr-box').count()).toBeGreaterThan(0);
  expect(await numberOf(page, 'ocr-image', 'naturalWidth')).toBe(640);
  await page.screenshot({ path: 'test-results/screenshots/playground-ocr.png', fullPage: true });
});

test('transcription: segments with timestamps, click to play, export SRT', async ({ signedIn: page }) => {
  await open(page, 'transcription');
  await page.getByTestId('transcribe-language').selectOption('en');
  await dropFile(page, 'transcribe-file-zone', playgroundFiles().wav, 'audio/wav');
  const segments = page.getByTestId('transcribe-segment');
  await expect(segments).toHaveCount(3);
  await expect(segments.nth(1)).toContainText('0:05.0–0:10.0');
  await segments.nth(1).click();
  await expect.poll(() => numberOf(page, 'transcribe-audio', 'currentTime')).toBeGreaterThanOrEqual(5);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('export-srt').click(),
  ]);
  expect(download.suggestedFilename()).toBe('speech.srt');
  const srt = readFileSync((await download.path())!, 'utf8');
  expect(srt).toMatch(/^1\n00:00:00,000 --> 00:00:05,000\n/);
  await page.screenshot({ path: 'test-results/screenshots/playground-transcription.png', fullPage: true });
  // 25 MiB + 1: refused in the page, before a single byte is sent
  const puts: string[] = [];
  page.on('request', (r) => {
    // a file is sent through the one staging route (or, earlier, the chunked method)
    if (
      r.url().includes('/bridge/files') ||
      (r.url().endsWith('/bridge/invoke') && (r.postData() ?? '').includes('playground.files.put'))
    )
      puts.push(r.url());
  });
  await page.getByTestId('transcribe-file').setInputFiles(playgroundFiles().tooBig);
  await expect(page.getByTestId('transcribe-error')).toContainText('larger than 25 MiB');
  expect(puts).toEqual([]);
  // a model without language support offers no language
  await page.getByTestId('transcribe-model').selectOption('echo-transcribe-mini');
  await expect(page.getByTestId('transcribe-language')).toHaveCount(0);
});

test('speech: voice catalogue with preview; a published speaker; the result plays from the library', async ({
  signedIn: page,
}) => {
  await open(page, 'audio');
  await expect(page.getByTestId('audio-profile')).toHaveText('Speech');
  await expect(page.getByTestId('audio-voices').locator('li')).toHaveCount(3);
  await page.getByTestId('voice-preview-amber').click();
  await expect(page.getByTestId('voice-preview-audio')).toBeVisible();
  await page.getByTestId('audio-mode-custom_voice').click();
  await page.getByTestId('audio-speaker').selectOption('basalt');
  await page.getByTestId('audio-text').fill('Hello from the playground.');
  await page.getByTestId('audio-run').click();
  await expect(page.getByTestId('audio-result')).toHaveAttribute('data-state', 'succeeded', {
    timeout: MEDIA_WAIT,
  });
  await expect
    .poll(() => numberOf(page, 'audio-result-audio', 'duration'), { timeout: MEDIA_WAIT })
    .toBeGreaterThan(0);
  await page.screenshot({ path: 'test-results/screenshots/playground-speech.png', fullPage: true });
  // 601 characters: the counter turns red and the core refuses before sending
  await page.getByTestId('audio-text').fill('x'.repeat(601));
  await expect(page.getByTestId('audio-text-count')).toHaveText('601 / 600');
  await page.getByTestId('audio-run').click();
  await expect(page.getByTestId('audio-error')).toContainText('601 characters; at most 600');
});

test('Foley: an uploaded video scored into the library', async ({ signedIn: page }) => {
  await open(page, 'audio');
  await page.getByTestId('audio-model').selectOption('cadence-foley');
  await expect(page.getByTestId('audio-profile')).toHaveText('Foley');
  await page.getByTestId('audio-video').setInputFiles(playgroundFiles().mp4);
  await expect(page.getByTestId('audio-video-name')).toHaveText('scene.mp4');
  await page.getByTestId('audio-prompt').fill('footsteps on gravel');
  await page.getByTestId('audio-run').click();
  await expect(page.getByTestId('audio-result')).toHaveAttribute('data-state', 'succeeded', {
    timeout: MEDIA_WAIT,
  });
  await page.screenshot({ path: 'test-results/screenshots/playground-foley.png', fullPage: true });
});

test('images: a set of two from the contract fields; i2i takes an input image', async ({
  signedIn: page,
}) => {
  await open(page, 'image');
  await expect(page.getByTestId('image-resolutionTier')).toHaveCount(0);
  await page.getByTestId('image-prompt').fill('a lighthouse at dusk');
  await page.getByTestId('image-count').fill('2');
  await page.getByTestId('image-orientation').selectOption('landscape');
  await page.getByTestId('image-run').click();
  await expect(page.getByTestId('image-result')).toHaveAttribute('data-state', 'succeeded', {
    timeout: MEDIA_WAIT,
  });
  await expect(page.getByTestId('image-result-image')).toHaveCount(2);
  await expect.poll(() => numberOf(page, 'image-result-image', 'naturalWidth')).toBe(1344);
  await page.screenshot({ path: 'test-results/screenshots/playground-images.png', fullPage: true });
  await page.getByTestId('image-mode').selectOption('i2i');
  await page.getByTestId('image-inputs').setInputFiles(playgroundFiles().png);
  await expect(page.getByTestId('image-input-names')).toHaveText('page.png');
  await page.getByTestId('image-run').click();
  await expect(page.getByTestId('image-result')).toHaveAttribute('data-state', 'succeeded', {
    timeout: MEDIA_WAIT,
  });
});

test('documents: a page range parsed and saved to the library; page 501 refused', async ({
  signedIn: page,
}) => {
  await open(page, 'parse');
  await page.getByTestId('parse-language').selectOption('en');
  await page.getByTestId('parse-start').fill('2');
  await page.getByTestId('parse-end').fill('4');
  await page.getByTestId('parse-preset').selectOption('hybrid-high');
  // dropped on the zone like a file dragged from the desktop
  await dropFile(page, 'parse-file-zone', playgroundFiles().pdf, 'application/pdf');
  await expect(page.getByTestId('parse-result')).toContainText('3 page(s) parsed');
  await expect(page.getByTestId('parse-result')).toContainText('## Page 4');
  await expect(page.getByTestId('parse-folder')).toContainText('library');
  await expect(page.getByTestId('parse-blocks').locator('tbody tr')).toHaveCount(9);
  await page.screenshot({ path: 'test-results/screenshots/playground-documents.png', fullPage: true });
  await page.getByTestId('parse-start').fill('');
  await page.getByTestId('parse-end').fill('');
  await page.getByTestId('parse-pages').fill('501');
  await page.getByTestId('parse-file').setInputFiles(playgroundFiles().pdf);
  await expect(page.getByTestId('parse-error')).toContainText('from 1 to 500 (got 501)');
});
