/**
 * Sets `key` in `map` as its newest entry (a map keeps insertion order), then drops the oldest
 * entries until at most `max` remain: the memory of a per-session or per-client cache stays bounded
 * whatever callers send.
 */
export function setNewest<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  for (const oldest of map.keys()) {
    if (map.size <= max) break;
    map.delete(oldest);
  }
}
