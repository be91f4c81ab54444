import { rm } from 'node:fs/promises';
import { filterQuote, fontFile, runFfmpeg } from './ffmpeg.js';
import { wrapText, writeTextCard } from './text-card.js';

export interface ImageRenderPlan {
  width: number;
  height: number;
  seed: number;
  prompt: string;
  title: string;
  /** Input images composited (i2i). */
  inputs: string[];
}

/** Renders one PNG: a seed-tinted test pattern, the prompt as text, input images as thumbnails. */
export async function renderImage(plan: ImageRenderPlan, outPath: string): Promise<void> {
  const font = fontFile();
  const fontOpt = font ? `fontfile=${filterQuote(font)}:` : '';
  const fontSize = Math.round(Math.min(plan.width, plan.height) / 26);
  const chars = Math.max(16, Math.floor((plan.width - 100) / (fontSize * 0.6)));
  const cardPath = await writeTextCard(`${outPath}.txt`, [
    plan.title,
    `seed ${plan.seed}`,
    '',
    ...wrapText(plan.prompt, chars, 8),
  ]);
  const args = ['-f', 'lavfi', '-i', `testsrc2=size=${plan.width}x${plan.height}:rate=1:duration=1`];
  const filters = [`[0:v]hue=h=${plan.seed % 360}:s=1.3[bg0]`];
  let current = 'bg0';
  const thumb = Math.round(Math.min(plan.width, plan.height) / 4);
  plan.inputs.forEach((input, i) => {
    args.push('-i', input);
    filters.push(
      `[${i + 1}:v]scale=${thumb}:${thumb}:force_original_aspect_ratio=decrease[t${i}]`,
      `[${current}][t${i}]overlay=x=${20 + i * (thumb + 12)}:y=${plan.height - thumb - 20}[bg${i + 1}]`,
    );
    current = `bg${i + 1}`;
  });
  filters.push(
    `[${current}]drawtext=${fontOpt}textfile=${filterQuote(cardPath)}:expansion=none:fontsize=${fontSize}:fontcolor=white:` +
      `box=1:boxcolor=black@0.6:boxborderw=12:x=30:y=30,format=rgb24[v]`,
  );
  args.push(
    '-filter_complex',
    filters.join(';'),
    '-map',
    '[v]',
    '-frames:v',
    '1',
    '-c:v',
    'png',
    '-fflags',
    '+bitexact',
    '-flags:v',
    '+bitexact',
    '-f',
    'image2',
    outPath,
  );
  try {
    await runFfmpeg(args);
  } finally {
    await rm(cardPath, { force: true });
  }
}
