import { rm } from 'node:fs/promises';
import { filterQuote, runFfmpeg } from './ffmpeg.js';
import { writeTextCard } from './text-card.js';

export type AudioRenderPlan =
  | { flavor: 'speech'; text: string; voice: string; seed: number }
  | { flavor: 'music'; seconds: number; seed: number; prompt: string }
  | { flavor: 'foley'; seconds: number; seed: number; prompt: string };

const WAV_OUT = [
  '-c:a',
  'pcm_s16le',
  '-map_metadata',
  '-1',
  '-fflags',
  '+bitexact',
  '-flags:a',
  '+bitexact',
  '-f',
  'wav',
];

/** Renders WAV audio: synthetic speech (flite, tones when flite is missing), a chord for music, shaped noise for Foley. */
export async function renderAudio(plan: AudioRenderPlan, outPath: string): Promise<void> {
  if (plan.flavor === 'speech') {
    const cardPath = await writeTextCard(`${outPath}.txt`, [plan.text]);
    try {
      await runFfmpeg([
        '-f',
        'lavfi',
        '-i',
        `flite=textfile=${filterQuote(cardPath)}:voice=${plan.voice}`,
        '-ar',
        '24000',
        '-ac',
        '1',
        ...WAV_OUT,
        outPath,
      ]);
      return;
    } catch {
      // ffmpeg without libflite: a tone sequence of a plausible speaking length instead
      const seconds = Math.min(60, Math.max(1, [...plan.text].length * 0.065)).toFixed(3);
      const hz = 140 + (plan.seed % 80);
      await runFfmpeg([
        '-f',
        'lavfi',
        '-i',
        `sine=frequency=${hz}:sample_rate=24000:duration=${seconds}`,
        '-af',
        'tremolo=f=5:d=0.8',
        '-ac',
        '1',
        ...WAV_OUT,
        outPath,
      ]);
    } finally {
      await rm(cardPath, { force: true });
    }
    return;
  }
  const seconds = plan.seconds.toFixed(3);
  if (plan.flavor === 'music') {
    const root = 196 + (plan.seed % 100);
    const chord = [1, 1.25, 1.5].map(
      (ratio) => `sine=frequency=${Math.round(root * ratio)}:sample_rate=44100:duration=${seconds}`,
    );
    await runFfmpeg([
      ...chord.flatMap((source) => ['-f', 'lavfi', '-i', source]),
      '-filter_complex',
      '[0:a][1:a][2:a]amix=inputs=3,tremolo=f=2:d=0.5,aformat=channel_layouts=stereo,volume=0.8[a]',
      '-map',
      '[a]',
      '-ar',
      '44100',
      ...WAV_OUT,
      outPath,
    ]);
    return;
  }
  await runFfmpeg([
    '-f',
    'lavfi',
    '-i',
    `anoisesrc=duration=${seconds}:color=pink:seed=${plan.seed % 2147483647}:amplitude=0.4:sample_rate=44100`,
    '-af',
    'lowpass=f=2400,aecho=0.8:0.7:60:0.3,aformat=channel_layouts=stereo',
    ...WAV_OUT,
    outPath,
  ]);
}
