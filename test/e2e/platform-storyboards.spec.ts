import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { violations } from './accessibility';
import { usePlatformWorld, type PlatformWorld } from './platform-world';
import { assembleAndLoad } from './studio-media';
import { MEDIA_WAIT } from './waits';

/**
 * Storyboards in, films out (issue 29), in Chromium against `framewright simulator` and
 * `framewright serve --platform`: a member imports the three-panel board `brd_sim_lighthouse` from
 * the simulator's storyboard-helper, the three shots appear with their prompts and first frames,
 * are generated and assembled, and the film goes back to the board — read back through the
 * simulator's inspection route with the film's sha256. Another person never sees the member's board.
 */
const BOARD = 'brd_sim_lighthouse';
let world: PlatformWorld;
let member: Page;

usePlatformWorld('platform-storyboards', async (opened, browser) => {
  world = opened;
  member = await world.openAs(browser, 'member');
});

interface InspectedPanel {
  panelId: string;
  position: number;
  prompt: string;
  image: { sha256: string };
  result: { writeId: string; sha256: string; byteSize: number; mimeType: string } | null;
}
interface InspectedBoard {
  boardId: string;
  title: string;
  ownerUserId: string;
  panels: InspectedPanel[];
  writes: {
    writeId: string;
    panelId: string;
    callerAppKey: string;
    idempotencyKey: string;
    requestDigest: string;
    result: { sha256: string; byteSize: number; mimeType: string; mediaUrl: string };
  }[];
}

/** The board as storyboard-helper keeps it: the simulator's inspection route (its token, no grant). */
async function inspectBoard(boardId: string): Promise<InspectedBoard> {
  const res = await fetch(`${world.storyboardHelperUrl}/_simulator/boards/${boardId}`, {
    headers: { Authorization: `Bearer ${world.simulator.token}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as InspectedBoard;
}

/** Opens "Import from Storyboard Helper" on the Sequences list. */
async function openImportDialog(page: Page) {
  await page.getByTestId('nav-sequences').click();
  const back = page.getByTestId('sequence-back');
  if (await back.count()) await back.click();
  await page.getByTestId('board-import-open').click();
  const dialog = page.getByTestId('board-import-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('board-list').or(dialog.getByTestId('board-none'))).toBeVisible();
  await expect(dialog.getByTestId('board-import-error')).toHaveCount(0);
  return dialog;
}

test('a member imports a three-panel board: three shots with their prompts and first frames, nothing generated', async () => {
  const board = await inspectBoard(BOARD);
  expect(board.panels).toHaveLength(3);
  const dialog = await openImportDialog(member);
  const row = dialog.locator(`[data-testid="board-item"][data-board-id="${BOARD}"]`);
  await expect(row.getByTestId('board-title')).toHaveText(board.title);
  await expect(row.getByTestId('board-panels')).toHaveAttribute('data-count', '3');
  await expect(row.getByTestId('board-imported')).toHaveCount(0);
  expect(await violations(member)).toEqual([]);
  await member.screenshot({ path: 'test-results/screenshots/platform-storyboard-import.png' });

  await row.getByTestId('board-import').click();
  await expect(dialog).toHaveCount(0);
  await expect(member.getByTestId('sequence-error')).toHaveCount(0);
  await expect(member.getByTestId('board-link-title')).toHaveText(`From board ${board.title}`);
  const cards = member.getByTestId('sequence-strip').locator(':scope > li');
  await expect(cards).toHaveCount(3);
  for (const [index, panel] of board.panels.entries()) {
    await expect(member.getByTestId(`sequence-shot-prompt-${index}`)).toHaveAttribute('title', panel.prompt);
    await expect(member.getByTestId(`sequence-shot-${index}`)).toHaveAttribute('data-state', 'draft');
    // the panel's image is the shot's first frame, shown before anything is generated
    const poster = member.getByTestId(`sequence-shot-poster-${index}`);
    await expect(poster).toBeVisible();
    await expect
      .poll(() => poster.evaluate((img: { naturalWidth: number }) => img.naturalWidth))
      .toBeGreaterThan(0);
  }
  await expect(member.getByTestId('board-send-film')).toBeDisabled();
  expect(await violations(member)).toEqual([]);
  await member.getByTestId('sequence-strip').scrollIntoViewIfNeeded();
  await member.screenshot({ path: 'test-results/screenshots/platform-storyboard-sequence.png' });

  // importing again lists the board as imported, and opens the same sequence
  const sequenceId = (await member.getByTestId('sequence-editor').getAttribute('data-sequence-id'))!;
  const again = await openImportDialog(member);
  const imported = again.locator(`[data-testid="board-item"][data-board-id="${BOARD}"]`);
  await expect(imported.getByTestId('board-imported')).toBeVisible();
  await imported.getByTestId('board-open-imported').click();
  await expect(member.getByTestId('sequence-editor')).toHaveAttribute('data-sequence-id', sequenceId);
  await expect(cards).toHaveCount(3);
  // nothing is generated until Generate: the board's write list is still empty
  expect((await inspectBoard(BOARD)).writes).toEqual([]);
});

test('the three shots generated from their first frames (signed readUrls of the member’s storage), assembled, and the film sent back to the board', async () => {
  test.setTimeout(420_000);
  const board = await inspectBoard(BOARD);
  await expect(member.getByTestId('sequence-generate-all')).toBeEnabled();
  await member.getByTestId('sequence-generate-all').click();
  for (const index of [0, 1, 2])
    await expect(member.getByTestId(`sequence-shot-${index}`)).toHaveAttribute('data-state', 'succeeded', {
      timeout: 180_000,
    });
  await expect(member.getByTestId('sequence-generate-refused')).toHaveCount(0);
  // the runtime read each panel's image, kept in the member's storage, through a signed readUrl
  const objectReads = world.backendRequests().filter((line) => line.startsWith('GET /objects/'));
  for (const panel of board.panels)
    expect(
      objectReads.some((line) => new RegExp(`^GET /objects/[0-9a-f]+/${panel.image.sha256} 200$`).test(line)),
      `the runtime read ${panel.panelId}'s image`,
    ).toBe(true);

  const player = await assembleAndLoad(member);
  const film = (await member.getByTestId('sequence-assembly-sha256').textContent())!.trim();
  const res = await member.request.get(new URL((await player.getAttribute('src'))!, world.origin).toString());
  expect(
    createHash('sha256')
      .update(await res.body())
      .digest('hex'),
  ).toBe(film);

  await expect(member.getByTestId('board-send-film')).toBeEnabled();
  await member.getByTestId('board-send-film').click();
  const sent = member.getByTestId('board-send-film-state');
  await expect(sent).toHaveAttribute('data-state', 'sent', { timeout: MEDIA_WAIT });
  await expect(sent).toHaveAttribute('data-panel-id', board.panels[0]!.panelId);
  const writeId = (await sent.getAttribute('data-write-id'))!;
  await member.getByTestId('board-link').scrollIntoViewIfNeeded();
  expect(await violations(member)).toEqual([]);
  await member.screenshot({ path: 'test-results/screenshots/platform-storyboard-sent.png' });

  // the board shows the film: one write by Framewright, the film's sha256, in the first panel
  const after = await inspectBoard(BOARD);
  expect(after.writes).toHaveLength(1);
  const write = after.writes[0]!;
  expect(write).toMatchObject({
    writeId,
    panelId: board.panels[0]!.panelId,
    callerAppKey: 'framewright-studio',
  });
  expect(write.result.sha256).toBe(film);
  expect(write.result.mimeType).toBe('video/mp4');
  expect(write.requestDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
  expect(after.panels[0]!.result).toMatchObject({ writeId, sha256: film });

  // the same send again writes nothing new: the board answers the first write
  await member.getByTestId('board-send-film').click();
  await expect(sent).toHaveAttribute('data-state', 'replayed', { timeout: MEDIA_WAIT });
  await expect(sent).toHaveAttribute('data-write-id', writeId);
  expect((await inspectBoard(BOARD)).writes).toHaveLength(1);

  // one shot to its own panel: the second shot's verified result in the second panel
  await member.getByTestId('sequence-shot-send-1').click();
  const shotSent = member.getByTestId('sequence-shot-send-state-1');
  await expect(shotSent).toHaveAttribute('data-state', 'sent', { timeout: MEDIA_WAIT });
  await expect(shotSent).toHaveAttribute('data-panel-id', board.panels[1]!.panelId);
  const final = await inspectBoard(BOARD);
  expect(final.writes).toHaveLength(2);
  expect(final.writes[1]).toMatchObject({ panelId: board.panels[1]!.panelId });
  expect(final.writes[1]!.result.sha256).toMatch(/^[0-9a-f]{64}$/);
  expect(final.writes[1]!.result.sha256).not.toBe(film);
  expect(final.writes[1]!.idempotencyKey).not.toBe(write.idempotencyKey);
});

test('another person never sees the member’s board: the manager lists only their own', async ({
  browser,
}) => {
  const manager = await world.openAs(browser, 'manager');
  try {
    const dialog = await openImportDialog(manager);
    await expect(dialog.getByTestId('board-item')).not.toHaveCount(0);
    await expect(dialog.locator(`[data-testid="board-item"][data-board-id="${BOARD}"]`)).toHaveCount(0);
    await expect(dialog).not.toContainText((await inspectBoard(BOARD)).title);
    await manager.screenshot({ path: 'test-results/screenshots/platform-storyboard-other-person.png' });
  } finally {
    await manager.context().close();
  }
  const personal = await world.openAs(browser, 'personal');
  try {
    const dialog = await openImportDialog(personal);
    await expect(dialog.getByTestId('board-none')).toBeVisible();
    await expect(dialog.getByTestId('board-item')).toHaveCount(0);
  } finally {
    await personal.context().close();
  }
});
