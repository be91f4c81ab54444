/**
 * Captions (issue 31): cues with times, written as SRT and WebVTT sidecars, split from a line's
 * text into cues of readable length, and the ffmpeg `subtitles` filter that burns an SRT into the
 * picture.
 */

export interface CaptionCue {
  startSeconds: number;
  endSeconds: number;
  text: string;
}

/** A caption of at most two lines of this many characters reads comfortably. */
export const CUE_MAX_CHARS = 84;

/** `HH:MM:SS<sep>mmm`, rounded to the millisecond. */
export function captionTime(seconds: number, separator: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

/** A cue's text with no blank line inside it (a blank line ends a cue in both formats). */
function cueText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

const ordered = (cues: readonly CaptionCue[]) =>
  cues
    .filter((c) => c.endSeconds > c.startSeconds && cueText(c.text).length > 0)
    .slice()
    .sort((a, b) => a.startSeconds - b.startSeconds || a.endSeconds - b.endSeconds);

/** SubRip: numbered cues, `00:00:01,500 --> 00:00:03,000`. */
export function toSrt(cues: readonly CaptionCue[]): string {
  return ordered(cues)
    .map(
      (cue, i) =>
        `${i + 1}\n${captionTime(cue.startSeconds, ',')} --> ${captionTime(cue.endSeconds, ',')}\n${cueText(cue.text)}\n`,
    )
    .join('\n');
}

/** WebVTT: `WEBVTT` header, `00:00:01.500 --> 00:00:03.000`, text escaped (`&`, `<`, `>`). */
export function toWebVtt(cues: readonly CaptionCue[]): string {
  const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = ordered(cues).map(
    (cue) =>
      `${captionTime(cue.startSeconds, '.')} --> ${captionTime(cue.endSeconds, '.')}\n${escape(cueText(cue.text))}\n`,
  );
  return ['WEBVTT\n', ...body].join('\n');
}

/**
 * A line's text from `startSeconds` for `durationSeconds`, split into cues of at most
 * {@link CUE_MAX_CHARS} characters at sentence ends (else at word breaks), each lasting its share
 * of the time by its length; together they cover the line exactly.
 */
export function cuesForLine(
  text: string,
  startSeconds: number,
  durationSeconds: number,
  maxChars = CUE_MAX_CHARS,
): CaptionCue[] {
  const words = text.replace(/\s+/g, ' ').trim();
  if (!words || !(durationSeconds > 0)) return [];
  const chunks: string[] = [];
  let current = '';
  for (const sentence of words.match(/[^.!?…]+[.!?…]*\s*/g) ?? [words]) {
    for (const word of sentence.trim().split(' ')) {
      const joined = current ? `${current} ${word}` : word;
      if (joined.length > maxChars && current) {
        chunks.push(current);
        current = word;
      } else current = joined;
    }
    // a sentence that ends past half a cue closes it, so cues tend to end with a sentence
    if (current.length >= maxChars / 2) {
      chunks.push(current);
      current = '';
    }
  }
  if (current) chunks.push(current);
  const total = chunks.reduce((n, c) => n + c.length, 0);
  let at = startSeconds;
  return chunks.map((chunk, i) => {
    const end =
      i === chunks.length - 1
        ? startSeconds + durationSeconds
        : at + (durationSeconds * chunk.length) / total;
    const cue = { startSeconds: round3(at), endSeconds: round3(end), text: chunk };
    at = end;
    return cue;
  });
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/**
 * The ffmpeg filter that burns the SRT at `srtPath` into the picture: `subtitles=filename=…`,
 * the path escaped for both levels ffmpeg parses (the option value: `\ ' :`; the filter graph:
 * `\ ' [ ] , ;`), so any path, a Windows one included, is read as one file name.
 */
export function subtitlesFilter(srtPath: string): string {
  const optionLevel = srtPath.replace(/[\\':]/g, (c) => `\\${c}`);
  const graphLevel = optionLevel.replace(/[\\'[\],;]/g, (c) => `\\${c}`);
  return `subtitles=filename=${graphLevel}:charenc=UTF-8`;
}
