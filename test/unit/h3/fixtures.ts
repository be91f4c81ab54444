import type { ProbedMedia, VideoDraft, Violation, ViolationTarget } from '../../../src/shared/h3/index.js';

export const MiB = 1024 * 1024;

let counter = 0;

function media(defaults: Omit<ProbedMedia, 'id'>, over: Partial<ProbedMedia>): ProbedMedia {
  const id = over.id ?? `${defaults.kind}-${++counter}`;
  return { id, ...defaults, sha256: `sha-${id}`, ...over };
}

export function image(over: Partial<ProbedMedia> = {}): ProbedMedia {
  return media(
    {
      fileName: 'still.png',
      mimeType: 'image/png',
      byteSize: 200_000,
      kind: 'image',
      width: 1376,
      height: 768,
    },
    over,
  );
}

export function video(over: Partial<ProbedMedia> = {}): ProbedMedia {
  return media(
    {
      fileName: 'clip.mp4',
      mimeType: 'video/mp4',
      byteSize: 4 * MiB,
      kind: 'video',
      width: 1280,
      height: 720,
      durationSeconds: 6,
      hasAudioTrack: false,
    },
    over,
  );
}

export function audio(over: Partial<ProbedMedia> = {}): ProbedMedia {
  return media(
    { fileName: 'voice.wav', mimeType: 'audio/wav', byteSize: 500_000, kind: 'audio', durationSeconds: 3 },
    over,
  );
}

/** A QuickTime `.mov`, as the prober reports it (kind video), with or without an audio track. */
export function mov(hasAudioTrack: boolean, over: Partial<ProbedMedia> = {}): ProbedMedia {
  return media(
    {
      fileName: 'take.mov',
      mimeType: 'video/quicktime',
      byteSize: 2 * MiB,
      kind: 'video',
      width: 1920,
      height: 1080,
      durationSeconds: 4,
      hasAudioTrack,
    },
    over,
  );
}

export function draft(over: Partial<VideoDraft> = {}): VideoDraft {
  return {
    model: 'h3-video',
    generationMode: 't2v',
    prompt: 'A red kite over a windy beach at dusk.',
    orientation: 'landscape',
    seconds: 5,
    resolutionTier: '768p',
    references: [],
    ...over,
  };
}

export function universal(references: ProbedMedia[], over: Partial<VideoDraft> = {}): VideoDraft {
  return draft({ generationMode: 'universal_reference_video', references, ...over });
}

export function many<T>(n: number, make: () => T): T[] {
  return Array.from({ length: n }, make);
}

/** The violations as `{code, target}` pairs, for exact comparisons. */
export function brief(violations: readonly Violation[]): { code: string; target: ViolationTarget }[] {
  return violations.map((v) => ({ code: v.code, target: v.target }));
}

export function codes(violations: readonly Violation[]): string[] {
  return violations.map((v) => v.code);
}

/** Everything the uploads of a draft would map to: localId -> `asset-<localId>`. */
export function uploadedAll(d: VideoDraft): Map<string, string> {
  const m = new Map<string, string>();
  for (const x of [d.firstFrame, d.lastFrame, ...d.references]) if (x) m.set(x.id, `asset-${x.id}`);
  return m;
}
