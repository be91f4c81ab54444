/**
 * Reads until the answer is there (not undefined), every `everyMs`, for at most `ms`; then fails
 * with what was awaited.
 */
export async function until<T>(
  read: () => Promise<T | undefined> | T | undefined,
  {
    ms = 60_000,
    everyMs = 200,
    what = 'the awaited state',
  }: { ms?: number; everyMs?: number; what?: string } = {},
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
