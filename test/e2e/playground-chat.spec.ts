import { test as base, expect, type Page } from '@playwright/test';
import { signInContext } from '../support/studio-host-process';
import { playgroundFiles, recordStreamedTexts, startHost, streamedTexts } from './playground-fixtures';
import { MEDIA_WAIT } from './waits';

/** Chat at demo pacing, so a reply streams long enough to be watched and cancelled. */
const test = base.extend<{ chat: Page }, { host: { origin: string; token: string } }>({
  host: [
    // eslint-disable-next-line no-empty-pattern -- Playwright fixtures name their dependencies by destructuring
    async ({}, use) => {
      const host = await startHost(1);
      await use(host);
      await host.stop();
    },
    { scope: 'worker' },
  ],
  chat: async ({ page, host }, use) => {
    await signInContext(page.context(), host);
    await page.goto(host.origin + '/');
    await page.getByTestId('nav-playground').click();
    await page.getByTestId('pg-tab-chat').click();
    await expect(page.getByTestId('chat-model')).toHaveValue('atlas-chat');
    await use(page);
  },
});

test('a reply streams token by token, is saved whole, and the conversation is searchable', async ({
  chat: page,
}) => {
  await page.getByTestId('chat-system').fill('You are terse.');
  // sampling fields are offered only as the contract allows (atlas-chat: temperature, top_p, …)
  await expect(page.getByTestId('chat-sampling-temperature')).toBeVisible();
  await page.getByTestId('chat-sampling-temperature').fill('0.3');
  await page.getByTestId('chat-input').fill('Describe a lighthouse at dusk.');
  await recordStreamedTexts(page);
  await page.getByTestId('chat-send').click();
  const streaming = page.getByTestId('chat-streaming');
  await expect(streaming).toContainText('simulated reply');
  await page.screenshot({ path: 'test-results/screenshots/playground-chat-streaming.png' });
  await expect(streaming).toBeHidden({ timeout: MEDIA_WAIT });
  const reply = page.getByTestId('chat-message-assistant');
  await expect(reply).toHaveCount(1);
  const whole = (await reply.textContent()) ?? '';
  // the text grew token by token while streaming: several shown texts, each a prefix of the reply
  const shown = await streamedTexts(page);
  expect(new Set(shown.map((t) => t.length)).size).toBeGreaterThan(1);
  for (const text of shown) expect(whole.startsWith(text.trimEnd())).toBe(true);
  expect(whole).toContain('Describe a lighthouse at dusk.');
  await page.getByTestId('chat-search').fill('lighthouse');
  await expect(page.getByTestId('chat-conversations').getByRole('button')).toHaveCount(1);
  await page.screenshot({ path: 'test-results/screenshots/playground-chat.png' });
});

test('cancel mid-stream leaves a clear state and saves nothing', async ({ chat: page }) => {
  await page.getByTestId('chat-new').click();
  await page.getByTestId('chat-input').fill('Tell me a long story about the sea.');
  await page.getByTestId('chat-send').click();
  await expect(page.getByTestId('chat-streaming')).toContainText('simulated');
  await page.getByTestId('chat-cancel').click();
  await expect(page.getByTestId('chat-error')).toContainText('cancelled; nothing was saved');
  await expect(page.getByTestId('chat-streaming')).toBeHidden();
  await expect(page.getByTestId('chat-message-assistant')).toHaveCount(0);
  await expect(page.getByTestId('chat-message-user')).toHaveCount(0);
  // the typed message stays for another try, and the story is not among the saved conversations
  await expect(page.getByTestId('chat-input')).toHaveValue('Tell me a long story about the sea.');
  await page.getByTestId('chat-search').fill('long story');
  await expect(page.getByTestId('chat-conversations').getByRole('button')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screenshots/playground-chat-cancelled.png' });
});

test('a vision model takes an attached image; a text model offers no attachment', async ({ chat: page }) => {
  await expect(page.getByTestId('chat-attach')).toHaveCount(0);
  await page.getByTestId('chat-model').selectOption('atlas-vision');
  await expect(page.getByTestId('chat-sampling-top_p')).toHaveCount(0);
  await page.getByTestId('chat-attach').setInputFiles(playgroundFiles().png);
  await expect(page.getByTestId('chat-attachments')).toContainText('page.png');
  await page.getByTestId('chat-input').fill('What is in this picture?');
  await page.getByTestId('chat-send').click();
  await expect(page.getByTestId('chat-message-assistant')).toContainText('1 attached media item', {
    timeout: MEDIA_WAIT,
  });
  await page.screenshot({ path: 'test-results/screenshots/playground-chat-vision.png' });
});
