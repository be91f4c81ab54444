import { test as base, type Page } from '@playwright/test';
import { signInContext, startStudioHost, type StudioHost } from '../support/studio-host-process';

export type { StudioHost };

/**
 * `studio` is one host per worker; `signedIn` opens a page already holding the host token (the
 * one-time code of the launch URL can be exchanged only once, by the first test that wants it).
 */
export const test = base.extend<{ signedIn: Page }, { studio: StudioHost }>({
  signedIn: async ({ page, studio }, use) => {
    await signInContext(page.context(), studio);
    await page.goto(studio.origin + '/');
    await use(page);
  },
  studio: [
    // Playwright requires an object pattern for a fixture's (unused) dependencies
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { host, stop } = await startStudioHost();
      await use(host);
      await stop();
    },
    { scope: 'worker' },
  ],
});
export { expect } from '@playwright/test';
