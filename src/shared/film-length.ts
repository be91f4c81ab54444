/**
 * How long a film of these shots lasts: each cross-fade overlaps two neighbouring shots, so the film
 * is the sum of the shots minus one cross-fade per join. The assembly (main) and the Sequences
 * strip (renderer) both ask this one rule, so the strip says what the assembled file will last.
 */
export function filmSeconds(shotSeconds: readonly number[], crossfadeSeconds: number): number {
  if (shotSeconds.length === 0) return 0;
  const sum = shotSeconds.reduce((a, b) => a + b, 0);
  return sum - crossfadeSeconds * (shotSeconds.length - 1);
}
