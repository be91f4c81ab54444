/** The escape character that starts a terminal control sequence. */
export const ESC = String.fromCharCode(27);

/** Cursor up N lines, or erase to the end of the screen. */
const CONTROL = new RegExp(`^${ESC}\\[(\\d*)([AJ])`);

/**
 * The screen a terminal shows after `output`: lines, with the three controls the CLI's live
 * progress uses (cursor up N lines, carriage return, erase to the end of the screen). Anything
 * else is text. A last empty line (the cursor's) is left out.
 */
export function terminalScreen(output: string): string[] {
  const lines: string[] = [''];
  let row = 0;
  let col = 0;
  for (let i = 0; i < output.length;) {
    const control = CONTROL.exec(output.slice(i));
    if (control) {
      if (control[2] === 'A') row = Math.max(0, row - Number(control[1] || 1));
      else {
        lines.splice(row + 1);
        lines[row] = lines[row]!.slice(0, col);
      }
      i += control[0].length;
      continue;
    }
    const c = output[i++]!;
    if (c === '\r') col = 0;
    else if (c === '\n') {
      row += 1;
      col = 0;
      if (lines.length <= row) lines.push('');
    } else {
      const line = lines[row]!;
      lines[row] = line.slice(0, col) + c + line.slice(col + 1);
      col += 1;
    }
  }
  return lines.filter((line, index) => index < lines.length - 1 || line !== '');
}
