/**
 * Delivering a film (issue 31): a 60 s 1080p film (made here with ffmpeg's lavfi `testsrc2` and a
 * `sine`, 24 fps, AAC sound) delivered 16:9 at −14 LUFS by Framewright's delivery
 * (`produceDeliveryFile`: the sound mixed and normalized in its passes, the picture fitted and
 * encoded, the file checked with ffprobe, its loudness measured, its sha256 taken, moved into
 * place), against `ffmpeg` running the same filter graph and encoding directly (one command, the
 * film's own sound encoded as is). Rounds alternate, and the ratio is the median of each round's
 * pair (the delivery over the ffmpeg run beside it, in turns which goes first), so a busy moment of the machine hits both
 * alike; goal ≤ 1.2×. On Linux the detail adds the CPU time of the child processes (ffmpeg and
 * ffprobe), a figure other work on the machine does not change.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { toSrt } from '../src/main/core/media-tools/captions.js';
import { deliveryArgs } from '../src/main/core/media-tools/delivery-render.js';
import { measureLoudness, mixSoundtrack } from '../src/main/core/media-tools/mix-soundtrack.js';
import { produceDeliveryFile } from '../src/main/core/sequences/delivery-file.js';
import { DELIVERY_PRESETS } from '../src/shared/delivery-formats.js';
import { locateMediaTools } from '../src/shared/node/ffmpeg-locator.js';
import { ROUNDS, median, spread, timeAsync, type BenchRow } from './measure.js';

const SECONDS = 60;
const WORK = path.join(import.meta.dirname, '.work', 'delivery');
const RUNS = Math.max(1, Math.min(ROUNDS, 3));

/** CPU seconds of the finished child processes (Linux: `cutime` + `cstime` of /proc/self/stat); NaN elsewhere. */
function childCpuSeconds(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // after "pid (comm) ": state is field 3, so cutime (16) and cstime (17) are at 13 and 14
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return NaN;
  }
}

/** Wall ms and child CPU seconds of `work`. */
async function measured(work: () => Promise<unknown>): Promise<{ ms: number; cpu: number }> {
  const cpu = childCpuSeconds();
  const ms = await timeAsync(work);
  return { ms, cpu: childCpuSeconds() - cpu };
}

function ffmpeg(args: string[]): void {
  const run = spawnSync(locateMediaTools().ffmpeg, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  if (run.status !== 0) throw new Error(`ffmpeg exited with ${run.status}: ${run.stderr.toString().trim()}`);
}

export async function benchDelivery(): Promise<BenchRow[]> {
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const film = path.join(WORK, 'film.mp4');
  ffmpeg([
    ...['-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc2=s=1920x1080:r=24:d=${SECONDS}`],
    ...['-f', 'lavfi', '-i', `sine=frequency=330:sample_rate=48000:duration=${SECONDS}`],
    ...['-af', 'volume=-18dB', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...['-c:a', 'aac', '-ac', '2', '-shortest', film],
  ]);
  const frame = DELIVERY_PRESETS['16x9'];
  const direct: { ms: number; cpu: number }[] = [];
  const delivered: { ms: number; cpu: number }[] = [];
  try {
    for (let round = 0; round < RUNS; round += 1) {
      // each pair runs in turn: the ffmpeg run first in even rounds, the delivery first in odd ones
      const runDirect = async () => {
        const out = path.join(WORK, `direct-${round}.mp4`);
        direct.push(
          await measured(async () =>
            ffmpeg(
              deliveryArgs({
                picturePath: film,
                soundPath: film,
                durationSeconds: SECONDS,
                frame,
                fit: 'pad',
                outPath: out,
              }),
            ),
          ),
        );
      };
      const runDelivery = async () => {
        delivered.push(
          await measured(() =>
            produceDeliveryFile({
              assemblyPath: film,
              durationSeconds: SECONDS,
              frame,
              fit: 'pad',
              loudnessTarget: -14,
              mixPlan: null,
              captions: [],
              finalPath: path.join(WORK, `delivered-${round}.mp4`),
              tempBase: path.join(WORK, `.delivery-${round}.${process.pid}.part`),
              mixer: { mixSoundtrack, measureLoudness, toSrt },
            }),
          ),
        );
      };
      if (round % 2 === 0) {
        await runDirect();
        await runDelivery();
      } else {
        await runDelivery();
        await runDirect();
      }
    }
  } finally {
    rmSync(WORK, { recursive: true, force: true });
  }
  const ratio = median(delivered.map((d, i) => d.ms / direct[i]!.ms));
  const ms = median(delivered.map((d) => d.ms));
  const baseline = median(direct.map((d) => d.ms));
  const cpu = median(delivered.map((d, i) => d.cpu / direct[i]!.cpu));
  return [
    {
      name: `delivery: a ${SECONDS} s 1080p film, 16:9 at −14 LUFS (vs ffmpeg running the same filter graph)`,
      ratio,
      goal: '≤ 1.2×',
      ok: ratio <= 1.2,
      detail:
        `${(ms / 1000).toFixed(1)} s median of ${RUNS} (${spread(delivered.map((d) => d.ms))}) vs ffmpeg alone ` +
        `${(baseline / 1000).toFixed(1)} s (${spread(direct.map((d) => d.ms))}); CPU time ${Number.isNaN(cpu) ? 'not measured' : `${cpu.toFixed(2)}×`}`,
    },
  ];
}
