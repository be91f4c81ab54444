import { mkdirSync } from 'node:fs';
import { test, type Page } from '@playwright/test';
import { signInContext, startStudioHost, type StartedStudioHost } from '../support/studio-host-process';
import { violations } from './accessibility';
import { expect } from './studio-host';

async function openStudio(page: Page, started: StartedStudioHost) {
  await signInContext(page.context(), started.host);
  await page.goto(started.host.origin + '/');
  await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'connected');
  await page.getByTestId('nav-sequences').click();
}

test('a sequence gets a generated music bed and a spoken voice line, with its captions', async ({ page }) => {
  test.setTimeout(180_000);
  mkdirSync('test-results/screenshots', { recursive: true });
  const host = await startStudioHost();
  try {
    await openStudio(page, host);
    await page.getByTestId('sequence-new-name').fill('Harbour sound');
    await page.getByTestId('sequence-create').click();
    await expect(page.getByTestId('sequence-name')).toHaveText('Harbour sound');
    const panel = page.getByTestId('soundtrack-panel');
    await expect(panel.getByRole('heading', { name: 'Sound track' })).toBeVisible();

    // a music bed generated from a prompt (the field found by its label)
    await panel.getByLabel('Describe the music to generate').fill('Slow harbour strings');
    await page.getByTestId('soundtrack-music-generate').click();
    await expect(page.getByTestId('soundtrack-music-current')).toHaveAttribute('data-state', 'ready', {
      timeout: 60_000,
    });
    await expect(page.getByTestId('soundtrack-music-current').locator('audio')).toHaveAttribute(
      'src',
      /\/media\/library\//,
    );

    // a voice line spoken from its text at 1.5 s, 3 dB down
    await panel.getByLabel('Words to speak').fill('The boats come home before the fog.');
    await panel.getByLabel('Starts at (s)').fill('1.5');
    await panel.getByLabel('Gain (dB)', { exact: true }).fill('-3');
    await page.getByTestId('soundtrack-line-speak').click();
    const line = page.getByTestId('soundtrack-voice-0');
    await expect(line).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    await expect(line).toHaveAttribute('data-at', '1.5');
    await expect(page.getByLabel('Gain of the line at 1.5 s')).toHaveValue('-3');
    await expect(page.getByTestId('soundtrack-cue-count')).toHaveAttribute('data-count', '1');
    await expect(page.getByTestId('soundtrack-cues').locator('li').first()).toHaveAttribute(
      'data-start',
      '1.5',
    );

    // the duck amount, saved
    await panel.getByLabel('Music ducks under a voice by (dB)').fill('18');
    await page.getByTestId('soundtrack-levels-save').click();
    await expect(page.getByTestId('soundtrack-levels-save')).toBeDisabled();
    await expect(page.getByTestId('soundtrack-duck')).toHaveValue('18');

    // no assembly yet: the captions come back as text
    await page.getByTestId('soundtrack-captions-export').click();
    await expect(page.getByTestId('soundtrack-captions-text')).toContainText('00:00:01,500 -->');

    await page.getByTestId('soundtrack-panel').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/screenshots/sequence-soundtrack.png', fullPage: true });
    expect(await violations(page)).toEqual([]);
  } finally {
    await host.stop();
  }
});
