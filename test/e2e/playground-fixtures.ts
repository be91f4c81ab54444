import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Page } from '@playwright/test';
import { locateMediaTools } from '../../src/shared/node/ffmpeg-locator';

/** Real files for the Playground panels, made with ffmpeg (and a hand-written PDF and CSV). */
export interface PlaygroundFiles {
  png: string;
  wav: string;
  mp4: string;
  pdf: string;
  csv: string;
  /** A WAV of 25 MiB + 1 byte (past the Playground's and transcription's limit). */
  tooBig: string;
}

let cached: PlaygroundFiles | undefined;

export function playgroundFiles(): PlaygroundFiles {
  if (cached) return cached;
  const dir = path.join(os.tmpdir(), `fw-e2e-playground-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const { ffmpeg } = locateMediaTools();
  const run = (...args: string[]) => execFileSync(ffmpeg, ['-v', 'error', '-y', ...args]);
  const file = (name: string) => path.join(dir, name);
  run('-f', 'lavfi', '-i', 'testsrc2=size=640x400', '-frames:v', '1', file('page.png'));
  run('-f', 'lavfi', '-i', 'sine=frequency=440:duration=12', '-ac', '1', '-ar', '16000', file('speech.wav'));
  run(
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=320x180:rate=12:duration=2',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    file('scene.mp4'),
  );
  writeFileSync(
    file('report.pdf'),
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
      '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
    'latin1',
  );
  writeFileSync(
    file('docs.csv'),
    'id,text\n1,boats on the open sea\n2,"a lighthouse, on the coast at dusk"\n3,bread recipe\n',
  );
  copyFileSync(file('speech.wav'), file('too-big.wav'));
  truncateSync(file('too-big.wav'), 25 * 1024 * 1024 + 1);
  cached = {
    png: file('page.png'),
    wav: file('speech.wav'),
    mp4: file('scene.mp4'),
    pdf: file('report.pdf'),
    csv: file('docs.csv'),
    tooBig: file('too-big.wav'),
  };
  return cached;
}

/** `framewright serve` at a chosen simulator pacing (1 = demo pacing: replies stream over ~1.5 s). */
export async function startHost(
  timeScale: number,
): Promise<{ origin: string; token: string; stop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fw-e2e-pg-'));
  const root = path.resolve(import.meta.dirname, '../..');
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(root, 'bin/framewright.js'),
      'serve',
      '--json',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--simulator-time-scale',
      String(timeScale),
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`framewright serve exited with ${code}`)));
  });
  const info = JSON.parse(line) as { origin: string; token: string };
  return {
    ...info,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/**
 * Records every text the chat's streaming bubble shows, in the page as it changes (a busy machine
 * may read the bubble only once it holds the whole reply, so a single read proves nothing).
 */
export async function recordStreamedTexts(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    const seen = [];
    window.streamedTexts = seen;
    new MutationObserver(() => {
      const text = document.querySelector('[data-testid="chat-streaming"]')?.textContent;
      if (text && text.replace('▍', '') !== seen.at(-1)) seen.push(text.replace('▍', ''));
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  })()`);
}

/** The texts {@link recordStreamedTexts} saw, in order. */
export async function streamedTexts(page: Page): Promise<string[]> {
  return (await page.evaluate('window.streamedTexts')) as string[];
}
