import { startSimulator, type RunningSimulator } from '../../src/simulator/index';
import { expect, test } from './studio-host';
import { chooseMode, freshDraft, generateAndFinish } from './studio-media';

const APP = 'app_sim_framewright_studio';
const DRAFT = 'appver_sim_framewright_studio_2';

// the debug profile's token goes to the keychain: `npm test` runs the e2e suite under
// scripts/with-keyring.sh (FRAMEWRIGHT_KEYRING_TESTS=1); without a keychain nothing can be paired
test.skip(process.env.FRAMEWRIGHT_KEYRING_TESTS !== '1', 'needs a keychain (scripts/with-keyring.sh)');

let sim: RunningSimulator;
test.beforeAll(async () => {
  sim = await startSimulator({ port: 0, timeScale: 0.05 });
});
test.afterAll(async () => {
  await sim?.close();
});

test('Pair for debugging from Settings, then Create with the debug profile: the account, billed, and the time left', async ({
  signedIn: page,
  context,
}) => {
  await page.getByTestId('nav-settings').click();
  const panel = page.getByTestId('pair-debugging');
  await panel.getByTestId('pair-name').fill('E2E debug');
  await panel.getByTestId('pair-developer-url').fill(sim.platform.developerBaseUrl);
  await panel.getByTestId('pair-app').fill(APP);
  await panel.getByTestId('pair-version').fill(DRAFT);
  await panel.getByTestId('pair-developer-token').fill(sim.platform.developerToken);
  await panel.getByTestId('pair-load-accounts').click();
  await expect(panel.getByTestId('pair-test-account').locator('option')).toHaveCount(3);
  await panel.getByTestId('pair-test-account').selectOption({ label: 'Morgan Reyes (Northwind Pictures)' });
  await panel.getByTestId('pair-start').click();
  const link = panel.getByTestId('pair-portal-link');
  await expect(link).toBeVisible();
  // the developer token field is emptied once the pairing started
  await expect(panel.getByTestId('pair-developer-token')).toHaveValue('');
  await page.screenshot({
    path: 'test-results/screenshots/studio-debug-pairing-waiting.png',
    fullPage: true,
  });

  // the developer approves in the portal page (a new tab), which hands the code back to the listener
  const portal = await context.newPage();
  await portal.goto((await link.getAttribute('href'))!);
  await expect(portal.getByRole('heading', { name: 'Approve a CLI pairing' })).toBeVisible();
  // the developer signs in on the portal page and approves: the browser follows the 303 to the
  // studio's loopback listener, which takes the code
  await portal.getByLabel('Developer token').fill(sim.platform.developerToken);
  await portal.getByRole('button', { name: 'Sign in and approve' }).click();
  await expect(portal.getByRole('heading', { name: 'Pairing approved' })).toBeVisible();
  await portal.close();

  const status = panel.getByTestId('pair-status');
  await expect(status).toContainText('Paired “E2E debug” as Morgan Reyes');
  const row = page.locator('[data-testid^="studio-profile-"]', { hasText: 'E2E debug' });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Use' }).click();

  // Create with the debug profile: the status bar names the account, that it is billed, and the time left
  await freshDraft(page);
  const session = page.getByTestId('debug-session');
  await expect(session).toContainText('Morgan Reyes (Northwind Pictures)');
  await expect(page.getByTestId('debug-billed')).toBeVisible();
  await expect(page.getByTestId('debug-time-left')).toHaveText(/^(60|59) min left$/);
  await expect(page.getByTestId('debug-pair-again')).toHaveCount(0);
  await chooseMode(page, 't2v');
  await page.getByTestId('prompt').fill('A debug lighthouse at dusk');
  await page.screenshot({ path: 'test-results/screenshots/studio-debug-create.png', fullPage: true });
  await generateAndFinish(page, 'debug');

  // the studio host is shared by the specs that follow: the simulator profile is made active again
  // (the debug profile stays, inactive: it owns a job, and its simulator stops with this file)
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('studio-profile-simulator').getByRole('button', { name: 'Use' }).click();
  await expect(page.getByTestId('studio-profile-simulator')).toContainText('✓');
  await expect(page.getByTestId('status-profile')).toContainText('Local simulator');
});
