import { violationsOfEveryScreen } from './accessibility';
import { expect, test } from './studio-host';

/** The desktop studio through the browser host: every screen, both themes (the platform's: platform-studio). */
for (const theme of ['light', 'dark'] as const) {
  test(`every screen of the studio, ${theme} theme: no accessibility violation of any impact`, async ({
    signedIn: page,
  }) => {
    try {
      expect(await violationsOfEveryScreen(page, theme)).toEqual([]);
    } finally {
      await page.getByTestId('nav-settings').click();
      await page.getByTestId('theme-system').click();
    }
  });
}
