import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './studio-host';
import { MEDIA_WAIT } from './waits';

const SECRET = 'sk-e2e-never-shown-again-0123456789abcdef';

/** Every bridge answer the page receives, to prove the key never comes back. */
function recordBridge(page: Page): string[] {
  const bodies: string[] = [];
  page.on('response', (response) => {
    if (response.url().includes('/bridge/'))
      void response.text().then(
        (t) => bodies.push(t),
        () => undefined,
      );
  });
  return bodies;
}

test('settings: a personal profile is added with its key; the key never comes back; test and remove', async ({
  signedIn: page,
}) => {
  const bodies = recordBridge(page);
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('profile-kind-personal').click();
  await page.getByTestId('profile-name').fill('E2E work key');
  await page.getByTestId('profile-url').fill('http://127.0.0.1:9/v1');
  await page.getByTestId('profile-secret').fill(SECRET);
  await page.getByTestId('profile-add').click();
  const status = page.getByTestId('profile-add-status');
  await expect(status).toBeVisible();
  // the key field is emptied whatever happened, and never refilled
  await expect(page.getByTestId('profile-secret')).toHaveValue('');
  // `npm test` runs the end-to-end suite inside scripts/with-keyring.sh (a real Secret Service):
  // there the key must be stored; without a keychain it must be refused, saying why
  const keychain = process.env.FRAMEWRIGHT_KEYRING_TESTS === '1';
  await expect(status).toHaveAttribute('role', keychain ? 'status' : 'alert');
  if (keychain) {
    const row = page.locator('[data-testid^="studio-profile-"]', { hasText: 'E2E work key' });
    await expect(row).toContainText('key stored');
    await row.getByRole('button', { name: 'Test' }).click();
    await expect(row).toContainText(/Failed:/);
    await page.screenshot({ path: 'test-results/screenshots/studio-settings.png', fullPage: true });
    await row.getByRole('button', { name: 'Remove' }).click();
    await expect(row).toHaveCount(0);
  } else {
    // no keychain on this machine: the refusal says why, and the profile was not kept
    await expect(status).toContainText(/keychain|secret|store/i);
    await expect(page.locator('[data-testid^="studio-profile-"]', { hasText: 'E2E work key' })).toHaveCount(
      0,
    );
    await page.screenshot({ path: 'test-results/screenshots/studio-settings.png', fullPage: true });
  }
  await page.reload();
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('studio-profile-simulator')).toBeVisible();
  await page.waitForTimeout(300);
  for (const body of bodies) expect(body).not.toContain(SECRET);
  expect(await page.content()).not.toContain(SECRET);
});

test('settings: the total wait limit persists; the library folder is shown', async ({ signedIn: page }) => {
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('library-dir')).toContainText('library');
  await page.getByTestId('wait-limit').fill('45');
  await page.getByTestId('wait-save').click();
  await page.reload();
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('wait-limit')).toHaveValue('45');

  // shared links: ended only after a second, explicit click, and the page says when
  const links = page.getByTestId('shared-links');
  await links.getByRole('button', { name: 'End every shared link…' }).click();
  await links.getByRole('button', { name: 'Keep them' }).click();
  await expect(links.getByRole('status')).toHaveCount(0);
  await links.getByRole('button', { name: 'End every shared link…' }).click();
  await links.getByRole('button', { name: 'End every link' }).click();
  await expect(links.getByRole('status')).toContainText('Every link to your files made before');
});

test('settings: the library folder can be changed; a wrong one is refused; new results land there and play', async ({
  signedIn: page,
  studio,
}) => {
  const invoke = async (method: string, params: unknown) => {
    const response = await page.request.post(`${studio.origin}/bridge/invoke`, {
      data: { method, params },
      headers: { authorization: `Bearer ${studio.token}` },
    });
    const body = (await response.json()) as { ok: boolean; result?: unknown; error?: { message: string } };
    if (!body.ok) throw new Error(`${method}: ${body.error?.message}`);
    return body.result as Record<string, unknown>;
  };
  const original = path.join(studio.dataDir, 'library');
  const moved = path.join(mkdtempSync(path.join(os.tmpdir(), 'fw-e2e-lib-')), 'Moved Library');
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('library-dir')).toContainText('library');
  try {
    // refused, saying why; nothing changes
    await page.getByTestId('library-dir-input').fill('relative/folder');
    await page.getByTestId('library-dir-save').click();
    const status = page.getByTestId('library-dir-status');
    await expect(status).toHaveAttribute('role', 'alert');
    await expect(status).toContainText('not an absolute path');
    expect((await invoke('studio.settings.get', {})).libraryDir).toBe(original);
    // accepted: created, shown, persisted
    await page.getByTestId('library-dir-input').fill(moved);
    await page.getByTestId('library-dir-save').click();
    await expect(status).toHaveAttribute('role', 'status');
    await expect(page.getByTestId('library-dir')).toContainText('Moved Library');
    await page.reload();
    await page.getByTestId('nav-settings').click();
    await expect(page.getByTestId('library-dir')).toContainText('Moved Library');
    await page.screenshot({ path: 'test-results/screenshots/studio-settings-library.png', fullPage: true });
    // a new result is downloaded into the new folder and plays through the media route
    const draft = await invoke('drafts.create', {
      form: {
        profileId: 'simulator',
        model: 'h3-video',
        generationMode: 't2v',
        prompt: 'A result stored in the moved library folder',
        orientation: 'landscape',
        seconds: 5,
        resolutionTier: '768p',
        references: [],
      },
    });
    await invoke('video.submit', { draftId: draft.id });
    let mediaUrl = '';
    await expect
      .poll(
        async () => {
          const { jobRowId } = await invoke('drafts.get', { draftId: draft.id });
          if (typeof jobRowId !== 'number') return false;
          const job = (await invoke('jobs.get', { jobRowId })) as {
            outputs: { verified: boolean; mediaUrl: string | null }[];
          };
          mediaUrl = job.outputs.find((o) => o.verified)?.mediaUrl ?? '';
          return mediaUrl !== '';
        },
        { timeout: 60_000 },
      )
      .toBe(true);
    const media = await page.request.get(studio.origin + mediaUrl);
    expect(media.status()).toBe(200);
    expect(media.headers()['content-type']).toContain('video/mp4');
    const files = readdirSync(moved, { recursive: true }).map(String);
    expect(files.some((f) => f.endsWith('.mp4'))).toBe(true);
  } finally {
    await invoke('studio.settings.update', { libraryDir: original });
  }
});

/** Makes sure the library holds at least one verified result, through the same bridge the page uses. */
async function ensureOneResult(
  page: Page,
  { origin, token }: { origin: string; token: string },
): Promise<void> {
  const invoke = async (method: string, params: unknown) => {
    const response = await page.request.post(`${origin}/bridge/invoke`, {
      data: { method, params },
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await response.json()) as { ok: boolean; result?: unknown; error?: { message: string } };
    if (!body.ok) throw new Error(`${method}: ${body.error?.message}`);
    return body.result as Record<string, unknown>;
  };
  const existing = (await invoke('library.list', {})) as { items: unknown[] };
  if (existing.items.length > 0) return;
  const draft = await invoke('drafts.create', {
    form: {
      profileId: 'simulator',
      model: 'h3-video',
      generationMode: 't2v',
      prompt: 'Offline review: a result made before the network went away',
      orientation: 'landscape',
      seconds: 5,
      resolutionTier: '768p',
      references: [],
    },
  });
  await invoke('video.submit', { draftId: draft.id });
  await expect
    .poll(async () => ((await invoke('library.list', {})) as { items: unknown[] }).items.length, {
      timeout: 60_000,
    })
    .toBeGreaterThan(0);
}

test('offline: with the service unavailable the library still browses and plays, Create keeps the last contracts', async ({
  signedIn: page,
  studio,
}) => {
  await ensureOneResult(page, studio);
  await page.getByTestId('nav-settings').click();
  await page.getByTestId('scenario-select').selectOption('unavailable');
  try {
    await page.reload();
    await page.getByTestId('nav-library').click();
    const card = page.getByTestId('library-card').first();
    await expect(card).toBeVisible();
    await card.getByTestId('library-open').click();
    const player = page.getByTestId('detail-player');
    await expect(player).toBeVisible();
    await expect
      .poll(() => player.evaluate((v) => (v as unknown as { readyState: number }).readyState), {
        timeout: MEDIA_WAIT,
      })
      .toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Escape');
    await page.getByTestId('nav-create').click();
    await expect(page.getByTestId('field-generationMode')).toBeVisible();
    await expect(page.getByTestId('services-offline')).toBeVisible();
    // one truth: the status bar says offline too while Create shows the last known contracts
    await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'offline');
    await page.screenshot({ path: 'test-results/screenshots/studio-offline.png', fullPage: true });
  } finally {
    // a failure above may have left the result's dialog open over the navigation
    if (await page.getByRole('dialog').count()) await page.keyboard.press('Escape');
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('scenario-select').selectOption('');
  }
});
