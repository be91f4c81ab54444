/**
 * The first screen: how much the renderer loads before it, how soon the Create screen takes input
 * in Debian's Chromium through the browser host, and how soon a studio started from nothing does.
 *
 * (The chunks' sizes and budget are bench/renderer-chunks.ts.)
 *  1. the Create screen interactive in a fresh browser context (empty cache) on a running host:
 *     from navigation start to the prompt and the service picker taking input, against the same
 *     Chromium loading a blank page from a loopback server in the same run;
 *  2. studio start: from spawning `framewright serve` (fresh data folder, Chromium already open
 *     with a blank tab, as a user's browser is) to the Create screen interactive, against its goal
 *     of 1.5 s (`node -e 0` in the same run is shown beside it: what any Node process costs here).
 *
 * "Interactive" is observed inside the page: a MutationObserver notes the first moment the prompt
 * and the service picker are both in the document and enabled (the services have been listed);
 * the bench then types into the prompt to prove it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { chromium, type Browser, type Page } from '@playwright/test';
import { signInContext, startStudioHost } from '../test/support/studio-host-process.js';
import { median, ROUNDS, spread, type BenchRow } from './measure.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const START_GOAL_MS = 1500;
/** The Create screen may take at most this many blank-page loads of the same Chromium. */
const CREATE_GOAL_RATIO = 20;

/** Browser globals used inside page functions (this file is type-checked without the DOM library). */
interface InteractivePage {
  __fwInteractive?: { at: number; epoch: number };
}

/**
 * Notes when the Create screen first takes input. Passed as source text: tsx (esbuild's keepNames)
 * would wrap a named inner function in a `__name` helper the page does not have.
 */
const INTERACTIVE_WATCH = `(() => {
  const enabled = (el) => el && !el.disabled && !el.readOnly && el.getAttribute('aria-disabled') !== 'true' && !el.hasAttribute('data-disabled');
  const check = () => {
    if (window.__fwInteractive) return true;
    if (enabled(document.querySelector('[data-testid="prompt"]')) && enabled(document.querySelector('[data-testid="service-select"]'))) {
      const at = performance.now();
      window.__fwInteractive = { at, epoch: performance.timeOrigin + at };
      return true;
    }
    return false;
  };
  const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
  observer.observe(document, { subtree: true, childList: true, attributes: true });
})()`;

/** Waits for the watcher's mark, then proves the prompt takes typing; answers the mark. */
async function interactiveMark(page: Page): Promise<{ at: number; epoch: number }> {
  await page.waitForFunction(
    () => (globalThis as unknown as InteractivePage).__fwInteractive !== undefined,
    null,
    {
      timeout: 60_000,
      polling: 10,
    },
  );
  const mark = await page.evaluate(() => (globalThis as unknown as InteractivePage).__fwInteractive!);
  await page.getByTestId('prompt').pressSequentially('a');
  if (!(await page.getByTestId('prompt').inputValue()).endsWith('a'))
    throw new Error('The Create screen did not take typing after it looked interactive.');
  return mark;
}

/** A fresh browser context (empty cache) with one blank tab, as a browser that is already open has. */
async function openBlankTab(browser: Browser): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  return { page, close: () => context.close() };
}

/** Navigates a blank tab to the studio's Create screen and answers its interactive mark. */
async function openCreateScreen(
  page: Page,
  host: { origin: string; token: string },
  failed: Promise<never> = new Promise<never>(() => undefined),
): Promise<{ at: number; epoch: number }> {
  await signInContext(page.context(), host);
  await page.context().addInitScript({ content: INTERACTIVE_WATCH });
  await page.goto(host.origin + '/');
  return await Promise.race([interactiveMark(page), failed]);
}

/** A loopback server of one blank page: the Chromium baseline. */
async function blankPageServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end('<!doctype html><html><head><title>blank</title></head><body><p>blank</p></body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function blankPageLoad(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    // the navigation entry's loadEventEnd, read as source text (no DOM types in this config)
    return await page.evaluate<number>(`performance.getEntriesByType('navigation')[0].loadEventEnd`);
  } finally {
    await context.close();
  }
}

async function createScreenRow(browser: Browser): Promise<BenchRow> {
  const blank = await blankPageServer();
  const { host, stop } = await startStudioHost();
  try {
    const create: number[] = [];
    const baseline: number[] = [];
    // the first round of each warms the host, the simulator's discovery and Chromium; not counted
    for (let round = -1; round < ROUNDS; round += 1) {
      const blankMs = await blankPageLoad(browser, blank.url);
      const tab = await openBlankTab(browser);
      const mark = await openCreateScreen(tab.page, host).finally(tab.close);
      if (round >= 0) {
        create.push(mark.at);
        baseline.push(blankMs);
      }
    }
    const ratio = median(create) / median(baseline);
    return {
      name: 'Create screen interactive in Chromium (Create / blank page)',
      ratio,
      goal: `goal ≤ ${CREATE_GOAL_RATIO}`,
      ok: ratio <= CREATE_GOAL_RATIO,
      detail: `${median(create).toFixed(0)} ms (${spread(create)}) from navigation start, fresh context each round; blank page ${median(baseline).toFixed(1)} ms`,
    };
  } finally {
    await stop();
    await blank.close();
  }
}

/**
 * `framewright serve` from spawn to its Create screen interactive in an open Chromium, and to the
 * moment it printed its address (ms): the part the process's own start takes.
 */
async function studioStart(
  browser: Browser,
): Promise<{ interactive: number; listening: number; cpu: number | undefined }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fw-bench-start-'));
  // the browser is open with a blank tab before the studio starts (creating a browser context is
  // Playwright's cost, not the studio's: 0.3–0.45 s here)
  const tab = await openBlankTab(browser);
  const started = Date.now();
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'bin/framewright.js'), 'serve', '--json', '--port', '0', '--data-dir', dataDir],
    { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<never>((_resolve, reject) =>
    child.once('exit', (code) => reject(new Error(`framewright serve exited with ${code}`))),
  );
  try {
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    const first = await Promise.race([lines.next(), exited]);
    const listening = Date.now() - started;
    const info = JSON.parse(String(first.value)) as { origin: string; token: string };
    const mark = await openCreateScreen(tab.page, info, exited);
    return { interactive: mark.epoch - started, listening, cpu: cpuMs(child.pid) };
  } finally {
    await tab.close();
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The CPU time (user + system, ms) a process has used so far, from Linux's /proc/<pid>/stat;
 * undefined elsewhere. Unlike wall-clock time, it hardly moves when other processes load the machine.
 */
function cpuMs(pid: number | undefined): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields 14 and 15 of the file (utime, stime), counted after the command name's ")"
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Linux's USER_HZ, the unit of /proc's CPU times (100 on every Linux build Node supports). */
const CLOCK_TICKS_PER_SECOND = 100;

async function nodeStart(): Promise<number> {
  const started = process.hrtime.bigint();
  await new Promise<void>((resolve, reject) =>
    spawn(process.execPath, ['-e', '0']).once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`node -e 0 exited with ${code}`)),
    ),
  );
  return Number(process.hrtime.bigint() - started) / 1e6;
}

async function studioStartRow(browser: Browser): Promise<BenchRow> {
  const starts: number[] = [];
  const listening: number[] = [];
  const node: number[] = [];
  const cpu: number[] = [];
  for (let round = -1; round < ROUNDS; round += 1) {
    const nodeMs = await nodeStart();
    const start = await studioStart(browser);
    if (round >= 0) {
      starts.push(start.interactive);
      listening.push(start.listening);
      node.push(nodeMs);
      if (start.cpu !== undefined) cpu.push(start.cpu);
    }
  }
  const cpuDetail = cpu.length
    ? `; the studio's process had used ${median(cpu).toFixed(0)} ms of CPU (${spread(cpu)}) by then`
    : '';
  const ratio = median(starts) / START_GOAL_MS;
  return {
    name: 'studio start to Create interactive (framewright serve / 1.5 s goal)',
    ratio,
    goal: 'goal ≤ 1.00',
    ok: ratio <= 1,
    detail: `${median(starts).toFixed(0)} ms (${spread(starts)}) from spawning \`framewright serve\` on a fresh data folder, of which ${median(listening).toFixed(0)} ms until it printed its address; \`node -e 0\` ${median(node).toFixed(0)} ms${cpuDetail}`,
  };
}

/** The first-screen rows of `npm run bench` (needs a built renderer: `npx electron-vite build`). */
export async function benchFirstScreen(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  try {
    rows.push(await createScreenRow(browser));
    rows.push(await studioStartRow(browser));
  } finally {
    await browser.close();
  }
  return rows;
}
