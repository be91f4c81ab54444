import { writeFile } from 'node:fs/promises';

/** Wraps text into at most `maxLines` lines of about `width` characters (code points), with an ellipsis. */
export function wrapText(text: string, width: number, maxLines: number): string[] {
  const words = text.replace(/\s+/g, ' ').trim().split(' ').filter(Boolean);
  const lines: string[] = [];
  let current = '';
  for (const word of words) {
    const chars = [...word];
    const pieces: string[] = [];
    for (let i = 0; i < chars.length; i += width) pieces.push(chars.slice(i, i + width).join(''));
    for (const piece of pieces) {
      if (!current) current = piece;
      else if ([...current].length + 1 + [...piece].length <= width) current += ' ' + piece;
      else {
        lines.push(current);
        current = piece;
      }
    }
  }
  if (current) lines.push(current);
  if (lines.length > maxLines) {
    const kept = lines.slice(0, maxLines);
    kept[maxLines - 1] = [...kept[maxLines - 1]!].slice(0, Math.max(1, width - 1)).join('') + '…';
    return kept;
  }
  return lines;
}

/** Writes the overlay text to a file (drawtext `textfile`, so no escaping of user text is needed). */
export async function writeTextCard(filePath: string, lines: string[]): Promise<string> {
  await writeFile(filePath, lines.join('\n'), 'utf8');
  return filePath;
}
