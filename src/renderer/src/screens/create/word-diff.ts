// The optimizer's view of what it changed; its own module so that it loads with the (lazy) optimizer.

/** Word-level difference of two texts: which words of `after` are new. */
export function diffWords(before: string, after: string): { text: string; added: boolean }[] {
  const a = before.split(/(\s+)/u);
  const b = after.split(/(\s+)/u);
  // longest common subsequence over tokens (prompts are short: ≤ 7000 code points)
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) return [{ text: after, added: true }];
  const dp: Uint16Array[] = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i -= 1)
    for (let j = m - 1; j >= 0; j -= 1)
      dp[i]![j] = a[i] === b[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
  const out: { text: string; added: boolean }[] = [];
  let i = 0;
  let j = 0;
  while (j < m) {
    if (i < n && a[i] === b[j]) {
      out.push({ text: b[j]!, added: false });
      i += 1;
      j += 1;
    } else if (i < n && dp[i + 1]![j]! >= dp[i]![j + 1]!) i += 1;
    else {
      out.push({ text: b[j]!, added: !/^\s+$/u.test(b[j]!) });
      j += 1;
    }
  }
  return out;
}
