/**
 * The waveform of decoded audio at a given width: for each column, the lowest and highest sample
 * over all channels in that slice of time (what a canvas draws as one vertical line).
 */
export interface Peak {
  min: number;
  max: number;
}

export function waveformPeaks(channels: readonly Float32Array[], columns: number): Peak[] {
  const length = Math.max(0, ...channels.map((c) => c.length));
  const n = Math.max(0, Math.floor(columns));
  const out: Peak[] = [];
  for (let col = 0; col < n; col++) {
    const start = Math.floor((col * length) / n);
    const end = Math.max(start + 1, Math.floor(((col + 1) * length) / n));
    let min = 0;
    let max = 0;
    for (const data of channels)
      for (let i = start; i < end && i < data.length; i++) {
        const v = data[i]!;
        if (v < min) min = v;
        if (v > max) max = v;
      }
    out.push({ min, max });
  }
  return out;
}
