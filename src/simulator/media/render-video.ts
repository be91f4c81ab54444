import { rm } from 'node:fs/promises';
import { filterQuote, fontFile, runFfmpeg } from './ffmpeg.js';
import { wrapText, writeTextCard } from './text-card.js';

export interface VideoRenderPlan {
  width: number;
  height: number;
  fps: number;
  frames: number;
  seed: number;
  generationMode: string;
  prompt: string;
  /** Header line, e.g. the model alias and canvas. */
  title: string;
  /** Visual references composited as thumbnails (images and videos, in request order). */
  visuals: { path: string; kind: 'image' | 'video'; label: string }[];
  /** Audio references mixed into the stereo track. */
  audios: { path: string }[];
}

const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

/**
 * Renders an H3-like video with ffmpeg: a moving test pattern tinted by the seed, the prompt,
 * mode and seed as text, reference thumbnails, and a stereo AAC track (tones from the seed,
 * reference audio mixed in). Deterministic for the same plan.
 */
export async function renderVideo(plan: VideoRenderPlan, outPath: string): Promise<void> {
  const duration = plan.frames / plan.fps;
  const dur = duration.toFixed(6);
  const font = fontFile();
  const fontOpt = font ? `fontfile=${filterQuote(font)}:` : '';
  const short = Math.min(plan.width, plan.height);
  const fontSize = Math.round(short / 28);
  const charsPerLine = Math.max(20, Math.floor((plan.width - 120) / (fontSize * 0.6)));
  const lines = [
    plan.title,
    `mode ${plan.generationMode}   seed ${plan.seed}   ${plan.width}x${plan.height} @ ${plan.fps} fps   ${plan.frames} frames`,
    '',
    ...wrapText(plan.prompt, charsPerLine, 6),
  ];
  const cardPath = await writeTextCard(`${outPath}.txt`, lines);

  const baseHz = 180 + (plan.seed % 240);
  const args: string[] = [
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${plan.width}x${plan.height}:rate=${plan.fps}:duration=${dur}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${baseHz}:sample_rate=48000:duration=${dur}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${Math.round(baseHz * 1.5)}:sample_rate=48000:duration=${dur}`,
  ];
  let inputIndex = 3;
  const filters: string[] = [];
  filters.push(`[0:v]hue=h=${plan.seed % 360}:s=1.1[bg0]`);
  let current = 'bg0';
  const thumbH = even(short / 5);
  const thumbW = even(thumbH * 1.6);
  plan.visuals.forEach((visual, i) => {
    if (visual.kind === 'video') args.push('-t', dur);
    args.push('-i', visual.path);
    const perRow = Math.max(1, Math.floor((plan.width - 40) / (thumbW + 16)));
    const col = i % perRow;
    const row = Math.floor(i / perRow);
    const x = 20 + col * (thumbW + 16);
    const y = plan.height - 20 - (row + 1) * (thumbH + 16);
    filters.push(
      `[${inputIndex}:v]scale=${thumbW}:${thumbH}:force_original_aspect_ratio=decrease,setsar=1,fps=${plan.fps}[t${i}]`,
      `[${current}][t${i}]overlay=x=${x}:y=${y}:eof_action=repeat[bg${i + 1}]`,
    );
    current = `bg${i + 1}`;
    inputIndex += 1;
  });
  filters.push(
    `[${current}]drawtext=${fontOpt}textfile=${filterQuote(cardPath)}:expansion=none:fontsize=${fontSize}:fontcolor=white:` +
      `line_spacing=${Math.round(fontSize / 3)}:box=1:boxcolor=black@0.6:boxborderw=14:x=40:y=40,` +
      `drawtext=${fontOpt}text='frame %{frame_num}':fontsize=${fontSize}:fontcolor=yellow:box=1:boxcolor=black@0.6:` +
      `boxborderw=8:x=w-tw-40:y=h-th-40,format=yuv420p[v]`,
  );
  filters.push(`[1:a][2:a]amerge=inputs=2,volume=0.25[tone]`);
  if (plan.audios.length > 0) {
    const labels: string[] = ['[tone]'];
    plan.audios.forEach((audio, i) => {
      args.push('-i', audio.path);
      filters.push(
        `[${inputIndex}:a]aresample=48000,aformat=sample_fmts=fltp:channel_layouts=stereo[ra${i}]`,
      );
      labels.push(`[ra${i}]`);
      inputIndex += 1;
    });
    filters.push(`${labels.join('')}amix=inputs=${labels.length}:duration=first:dropout_transition=0[a]`);
  } else {
    filters.push(`[tone]anull[a]`);
  }
  args.push(
    '-filter_complex',
    filters.join(';'),
    '-map',
    '[v]',
    '-map',
    '[a]',
    '-frames:v',
    String(plan.frames),
    '-r',
    String(plan.fps),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-crf',
    '32',
    '-pix_fmt',
    'yuv420p',
    '-threads',
    '2',
    '-c:a',
    'aac',
    '-b:a',
    '96k',
    '-ac',
    '2',
    '-ar',
    '48000',
    '-t',
    dur,
    '-map_metadata',
    '-1',
    '-fflags',
    '+bitexact',
    '-flags:v',
    '+bitexact',
    '-flags:a',
    '+bitexact',
    '-movflags',
    '+faststart',
    '-f',
    'mp4',
    outPath,
  );
  try {
    await runFfmpeg(args);
  } finally {
    await rm(cardPath, { force: true });
  }
}
