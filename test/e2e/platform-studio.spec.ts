import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { violationsOfEveryScreen } from './accessibility';
import { usePlatformWorld, type PlatformUser, type PlatformWorld } from './platform-world';
import { chooseMode, freshDraft, generateAndFinish, makeMediaFiles } from './studio-media';
import { MEDIA_WAIT } from './waits';

/**
 * Framewright deployed as a platform application, in Chromium, against the two real commands:
 * `framewright simulator` (the platform) and `framewright serve --platform` (the backend). A member
 * creates a t2v and an i2v video (the first frame travels as a signed readUrl), the queue follows
 * the job events, the library holds verified results and an export downloads a marked copy; another
 * person sees none of it; a manager sees the Team screen with the member's project, a member never.
 */
let world: PlatformWorld;

usePlatformWorld('platform-studio', async (opened) => {
  world = opened;
});

const PROJECT = 'Harbour film';
const openAs = (browser: Browser, user: PlatformUser) => world.openAs(browser, user);

let member: Page;
const rows: string[] = [];
let memberMediaUrl: string;

test('a member creates a t2v video filed under a project: dry-run cost, queue from events, verified library', async ({
  browser,
}) => {
  member = await openAs(browser, 'member');
  // a member may not read the directory: the status bar says "you", never the raw user id
  await expect(member.getByTestId('signed-in-user')).toContainText(
    'Signed in as a member of your organization',
  );
  await expect(member.getByTestId('signed-in-user')).not.toContainText('usr_sim_member');
  await expect(member.getByTestId('nav-team')).toHaveCount(0);
  await freshDraft(member);
  await chooseMode(member, 't2v');
  await member.getByTestId('prompt').fill('A harbour at dawn, gulls over the water');
  await member.getByTestId('project-picker').selectOption('__new__');
  await member.getByRole('textbox', { name: 'Project name' }).fill(PROJECT);
  await member.getByRole('button', { name: 'Create project' }).click();
  await expect(member.getByTestId('project-picker').locator('option:checked')).toHaveText(PROJECT);
  // the optimizer is offered on the platform too (issue 26; platform-create-parity.spec.ts uses it)
  await expect(member.getByTestId('optimize')).toBeVisible();
  await member.getByTestId('check-admission').click();
  await expect(member.getByTestId('admission-result')).toHaveClass(/ok-text/);
  await expect(member.getByTestId('admission-cost')).toContainText(/\d/);
  await member.screenshot({ path: 'test-results/screenshots/platform-create.png', fullPage: true });
  rows.push(await generateAndFinish(member, 'platform-t2v'));
});

test('an i2v video whose first frame travels as a signed readUrl', async () => {
  const media = makeMediaFiles();
  await freshDraft(member);
  await member.getByTestId('prompt').fill('The red square turns blue');
  await chooseMode(member, 'i2v');
  await member.getByTestId('file-picker').setInputFiles([media.red]);
  await expect(member.getByTestId('frame-firstFrame')).toContainText('red.png');
  rows.push(await generateAndFinish(member, 'platform-i2v'));
});

test('Generate ×2 on the platform: a double click makes one group of two runtime jobs', async () => {
  const prompt = 'Two kites over a dune at noon';
  await freshDraft(member);
  await chooseMode(member, 't2v');
  await member.getByTestId('prompt').fill(prompt);
  await member.getByTestId('variations-count').selectOption('2');
  await member.getByTestId('generate-variations').dblclick();
  await expect(member.getByTestId('submit-status')).toContainText('2 variations submitted', {
    timeout: MEDIA_WAIT,
  });
  await member.getByTestId('open-queue').click();
  const group = member.getByTestId('variation-group').filter({ hasText: prompt });
  await expect(group).toHaveCount(1);
  await expect(member.getByTestId('job-row').filter({ hasText: prompt })).toHaveCount(2);
  await expect(group.getByTestId('job-verified')).toHaveCount(2, { timeout: 60_000 });
  await member.screenshot({ path: 'test-results/screenshots/platform-variations-queue.png' });
});

test('images in the Playground: every panel is offered; an i2i input travels as a signed readUrl', async () => {
  await member.getByTestId('nav-playground').click();
  await expect(member.getByTestId('pg-tab-chat')).toBeVisible();
  await expect(member.getByTestId('pg-tab-audio')).toBeVisible();
  await member.getByTestId('pg-tab-image').click();
  await member.getByTestId('image-prompt').fill('a lighthouse at dusk');
  await member.getByTestId('image-run').click();
  await expect(member.getByTestId('image-result')).toHaveAttribute('data-state', 'succeeded', {
    timeout: 60_000,
  });
  await expect(member.getByTestId('image-result-image').first()).toBeVisible();
  await member.getByTestId('image-mode').selectOption('i2i');
  await member.getByTestId('image-inputs').setInputFiles(makeMediaFiles().red);
  // Run waits for the input on its way (clicked before, the call went without it: a soak's flake)
  await expect(member.getByTestId('image-input-names')).not.toBeEmpty();
  await member.getByTestId('image-run').click();
  await expect(member.getByTestId('image-result')).toHaveAttribute('data-state', 'succeeded', {
    timeout: 60_000,
  });
  await member.screenshot({ path: 'test-results/screenshots/platform-playground-image.png', fullPage: true });
});

test('the library holds the verified results; an export downloads a platform-marked copy', async () => {
  await member.getByTestId('nav-library').click();
  for (const rowId of rows)
    await expect(member.locator(`[data-testid="library-card"][data-row-id="${rowId}"]`)).toBeVisible();
  const card = member.locator(`[data-testid="library-card"][data-row-id="${rows[0]}"]`);
  await card.getByTestId('library-open').click();
  await expect(member.getByTestId('detail-verified')).toBeVisible({ timeout: MEDIA_WAIT });
  await expect(member.getByTestId('detail-reveal')).toHaveCount(0);
  memberMediaUrl = (await member.getByTestId('detail-player').getAttribute('src'))!;
  expect((await member.request.get(`${world.origin}${memberMediaUrl}`)).status()).toBe(200);
  await member.screenshot({ path: 'test-results/screenshots/platform-library.png' });
  const [download] = await Promise.all([
    member.waitForEvent('download'),
    member.getByRole('button', { name: 'Export marked copy' }).click(),
  ]);
  const saved = path.join(world.dir, 'marked.mp4');
  await download.saveAs(saved);
  const bytes = readFileSync(saved);
  expect(bytes.length).toBeGreaterThan(0);
  expect(download.suggestedFilename()).toMatch(/\.mp4$/);
  // the marked copy is a different file from the result it was made of
  const verifiedSha = await member.getByTestId('detail-sha256').textContent();
  expect(createHash('sha256').update(bytes).digest('hex')).not.toBe(verifiedSha?.trim());
  await member.keyboard.press('Escape');
});

test('another person sees none of it, even with the member’s media URL', async ({ browser }) => {
  const personal = await openAs(browser, 'personal');
  await personal.getByTestId('nav-queue').click();
  await expect(personal.getByTestId('job-row')).toHaveCount(0);
  await personal.getByTestId('nav-library').click();
  await expect(personal.getByTestId('library-card')).toHaveCount(0);
  await expect(personal.getByTestId('nav-team')).toHaveCount(0);
  // the member's signed media URL names a row of the member's journal, never another person's
  expect((await personal.request.get(`${world.origin}${memberMediaUrl}`)).status()).toBe(404);
  await personal.screenshot({ path: 'test-results/screenshots/platform-other-person.png' });
  await personal.context().close();
});

/** A canvas element as the page has it (this project's typecheck has no DOM types). */
interface PageCanvas {
  tagName: string;
  width: number;
  height: number;
  toDataURL(): string;
  getContext(
    kind: '2d',
  ): { getImageData(x: number, y: number, w: number, h: number): { data: ArrayLike<number> } } | null;
}

test('a manager sees the Team screen with the member’s project and its credits, charted and tabled', async ({
  browser,
}) => {
  const manager = await openAs(browser, 'manager');
  // a manager may read the directory: the status bar names them as it does
  await expect(manager.getByTestId('signed-in-user')).toContainText('Signed in as: Morgan Reyes');
  await manager.getByTestId('nav-team').click();
  await expect(manager.getByRole('heading', { name: 'Team' })).toBeVisible();
  // the figures' time and age, and the runtime's freshness word
  await expect(manager.getByTestId('team-usage-as-of')).toHaveText(
    /^Figures as of \d{2}:\d{2}, (just now|\d+ min ago) \(realtime\)$/,
  );
  await expect(manager.locator('table.team-usage')).toContainText(PROJECT);
  // two charts above the exact table, each read as one image with a summary of what it draws
  const perDay = manager.getByRole('img', { name: /^Bar chart of settled credits per day from/ });
  const perMember = manager.getByRole('img', { name: /^Bar chart of settled credits per member:/ });
  await expect(perDay).toHaveAccessibleName(new RegExp(`stacked by project: ${PROJECT} \\d+\\.\\d+`));
  await expect(perMember).toHaveAccessibleName(/: Sam Okafor \d+\.\d+/);
  const table = await manager.locator('table.team-usage').boundingBox();
  for (const chart of [perDay, perMember]) {
    await expect(chart).toBeVisible();
    // a canvas Chart.js drew on: some of its pixels are painted
    const painted = await chart.evaluate((element) => {
      const canvas = element as unknown as PageCanvas;
      if (canvas.tagName !== 'CANVAS') return -1;
      const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
      let count = 0;
      for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) count++;
      return count;
    });
    expect(painted).toBeGreaterThan(100);
    const box = (await chart.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(table!.y);
  }
  // the screen scrolls inside the shell: bring the usage (heading, age, charts, table) into the picture
  await manager
    .getByRole('heading', { name: 'Credits by project, member, service and day' })
    .evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
  await manager.screenshot({ path: 'test-results/screenshots/platform-team.png', fullPage: true });
  // the charts take the dark theme's colours when it is applied (axes, grid and legend are redrawn)
  const drawn = () => perMember.evaluate((element) => (element as unknown as PageCanvas).toDataURL());
  const light = await drawn();
  await manager.evaluate("document.documentElement.dataset.theme = 'dark'");
  await expect.poll(drawn).not.toBe(light);
  await manager.screenshot({ path: 'test-results/screenshots/platform-team-dark.png', fullPage: true });
  await manager.context().close();
  await member.context().close();
});

test('on the platform, every screen a manager and a member see passes axe-core in both themes', async ({
  browser,
}) => {
  // two people × two themes × every screen and all eight Playground panels (issue 26)
  test.setTimeout(300_000);
  for (const user of ['manager', 'member'] as const) {
    const page = await openAs(browser, user);
    for (const theme of ['light', 'dark'] as const)
      expect((await violationsOfEveryScreen(page, theme)).map((line) => `${user}/${theme} ${line}`)).toEqual(
        [],
      );
    await page.context().close();
  }
});
