import { waveformPeaks, type Peak } from '../../library/compare/waveform-peaks';

/**
 * The timeline's sounds, fetched and decoded once per URL (the music bed, each voice line): the
 * same buffers draw the waveforms and play in the live preview (Web Audio), so nothing is decoded
 * twice. One AudioContext for the page, made on first use.
 */
let context: AudioContext | undefined;
const decoded = new Map<string, Promise<AudioBuffer | null>>();

export function audioContext(): AudioContext | undefined {
  if (context) return context;
  const Ctor = globalThis.AudioContext as typeof AudioContext | undefined;
  if (!Ctor) return undefined;
  context = new Ctor();
  return context;
}

/** The decoded sound at `url`, or null when it cannot be fetched or decoded (the clip stays, silent). */
export function decodedSound(url: string): Promise<AudioBuffer | null> {
  let pending = decoded.get(url);
  if (!pending) {
    const ctx = audioContext();
    pending = ctx
      ? fetch(url)
          .then((r) => (r.ok ? r.arrayBuffer() : Promise.reject(new Error(String(r.status)))))
          .then((bytes) => ctx.decodeAudioData(bytes))
          .catch(() => null)
      : Promise.resolve(null);
    decoded.set(url, pending);
  }
  return pending;
}

/** A sound's peaks over `columns` columns, from `fromSeconds` for `seconds` of it. */
export function peaksOf(
  buffer: AudioBuffer,
  columns: number,
  fromSeconds = 0,
  seconds = buffer.duration,
): Peak[] {
  const start = Math.max(0, Math.floor(fromSeconds * buffer.sampleRate));
  const end = Math.min(buffer.length, Math.ceil((fromSeconds + seconds) * buffer.sampleRate));
  const channels: Float32Array[] = [];
  for (let c = 0; c < buffer.numberOfChannels; c += 1)
    channels.push(buffer.getChannelData(c).subarray(start, end));
  return waveformPeaks(channels, columns);
}
