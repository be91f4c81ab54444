/** Prints one JSON document on its own line (what `--json` promises). */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value) + '\n');
}
