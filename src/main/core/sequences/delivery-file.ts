import { rename, rm, stat, writeFile } from 'node:fs/promises';
import { AppError } from '../errors.js';
import { probeDelivery, renderDelivery, type DeliveryFrame } from '../media-tools/delivery-render.js';
import { sha256OfFile } from '../media-tools/probe-media.js';
import type { DeliveryCaptionCue, DeliveryMixer, DeliveryMixPlan } from './delivery-ports.js';

/** The share of a delivery's progress its sound mix takes (the picture's encoding takes the rest). */
const MIX_SHARE = 0.15;

export interface DeliveryFileInput {
  /** The verified assembly: its picture, and its sound as the film's own. */
  assemblyPath: string;
  durationSeconds: number;
  frame: DeliveryFrame;
  fit: 'pad' | 'crop';
  loudnessTarget: number;
  /** null: the film's own sound only (still normalized to the target). */
  mixPlan: DeliveryMixPlan | null;
  /** Cues to burn in (none: no captions). */
  captions: readonly DeliveryCaptionCue[];
  /** Where the verified file ends up. */
  finalPath: string;
  /** The prefix of this render's temporary files, in the same folder (`.<id>.<pid>.part`). */
  tempBase: string;
  mixer: DeliveryMixer;
  signal?: AbortSignal;
  onProgress?: (fraction: number) => void;
}

export interface DeliveredFile {
  path: string;
  sha256: string;
  byteSize: number;
  durationSeconds: number;
  measuredLufs: number;
}

/**
 * Makes one delivery file: the sound mixed and normalized to the target, the picture fitted to the
 * frame (captions burned in when given), written to a temporary file beside the final one, checked
 * with ffprobe (the frame's size, H.264 yuv420p, AAC 48 kHz stereo, no rotation, the film's
 * duration within one frame), its loudness measured and its sha256 taken, then moved into place.
 * Stopped or failed, it leaves none of its files behind.
 */
export async function produceDeliveryFile(input: DeliveryFileInput): Promise<DeliveredFile> {
  const mixPath = `${input.tempBase}.mix.wav`;
  const captionsPath = `${input.tempBase}.srt`;
  const tempPath = `${input.tempBase}.mp4`;
  const progress = (fraction: number) => input.onProgress?.(Math.min(0.99, fraction));
  try {
    const assembly = await probeDelivery(input.assemblyPath);
    const plan = input.mixPlan;
    await input.mixer.mixSoundtrack({
      programAudioPath: input.assemblyPath,
      durationSeconds: input.durationSeconds,
      music: plan?.music,
      voices: plan?.voices ?? [],
      duckDb: plan?.duckDb ?? 0,
      targetLufs: input.loudnessTarget,
      outPath: mixPath,
      signal: input.signal,
      onProgress: (f) => progress(f * MIX_SHARE),
    });
    if (input.captions.length > 0) await writeFile(captionsPath, input.mixer.toSrt(input.captions), 'utf8');
    await renderDelivery(
      {
        picturePath: input.assemblyPath,
        soundPath: mixPath,
        durationSeconds: input.durationSeconds,
        frame: input.frame,
        fit: input.fit,
        captionsPath: input.captions.length > 0 ? captionsPath : undefined,
        outPath: tempPath,
      },
      { signal: input.signal, onProgress: (f) => progress(MIX_SHARE + f * (0.97 - MIX_SHARE)) },
    );
    const facts = await probeDelivery(tempPath);
    const problems: string[] = [];
    if (facts.width !== input.frame.width || facts.height !== input.frame.height)
      problems.push(
        `its picture is ${facts.width}x${facts.height}, not ${input.frame.width}x${input.frame.height}`,
      );
    if (facts.videoCodec !== 'h264' || facts.pixelFormat !== 'yuv420p')
      problems.push(`its picture is ${facts.videoCodec} ${facts.pixelFormat}, not H.264 yuv420p`);
    if (facts.audioCodec !== 'aac' || facts.sampleRate !== 48000 || facts.channels !== 2)
      problems.push('it lacks its AAC 48 kHz stereo sound');
    if (facts.rotation !== 0) problems.push(`it is rotated by ${facts.rotation}°`);
    const frameSeconds = 1 / (assembly.fps ?? 24);
    if (Math.abs((facts.durationSeconds ?? 0) - input.durationSeconds) > frameSeconds + 0.001)
      problems.push(`it lasts ${facts.durationSeconds ?? 0} s instead of ${input.durationSeconds} s`);
    if (problems.length > 0)
      throw new AppError(
        'sequence.delivery_failed',
        `The delivered file failed its check: ${problems.join('; ')}.`,
      );
    if (input.signal?.aborted)
      throw new AppError('sequence.delivery_cancelled', 'The delivery was cancelled.');
    const { integratedLufs } = await input.mixer.measureLoudness(tempPath);
    const sha256 = await sha256OfFile(tempPath);
    const { size } = await stat(tempPath);
    if (input.signal?.aborted)
      throw new AppError('sequence.delivery_cancelled', 'The delivery was cancelled.');
    await rename(tempPath, input.finalPath);
    input.onProgress?.(1);
    return {
      path: input.finalPath,
      sha256,
      byteSize: size,
      durationSeconds: facts.durationSeconds ?? input.durationSeconds,
      measuredLufs: Math.round(integratedLufs * 10) / 10,
    };
  } finally {
    await Promise.all([mixPath, captionsPath, tempPath].map((file) => rm(file, { force: true })));
  }
}
