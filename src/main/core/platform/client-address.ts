import { isIP } from 'node:net';

/** An address as one form: IPv4-mapped IPv6 as plain IPv4. */
function plainAddress(address: string): string {
  const trimmed = address.trim().replace(/^\[|\]$/g, '');
  return trimmed.toLowerCase().startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4
    ? trimmed.slice(7)
    : trimmed;
}

/**
 * The client a request comes from: its peer address, or — when the peer is one of the operator's
 * trusted proxies (`FRAMEWRIGHT_TRUSTED_PROXIES`) — the nearest address in `X-Forwarded-For` that is
 * not itself a trusted proxy. A forwarded header from anyone else is ignored (it could name anyone).
 */
export function clientAddressOf(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trustedProxies: ReadonlySet<string>,
): string {
  const direct = plainAddress(peer ?? '');
  if (!trustedProxies.has(direct)) return direct;
  const chain = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
    .split(',')
    .map(plainAddress)
    .filter(Boolean);
  for (let i = chain.length - 1; i >= 0; i -= 1) {
    const hop = chain[i]!;
    if (isIP(hop) === 0) return direct;
    if (!trustedProxies.has(hop)) return hop;
  }
  return direct;
}

/** The trusted proxies of a comma-separated setting, as plain addresses (anything else is refused). */
export function parseTrustedProxies(value: string | undefined): Set<string> {
  const proxies = new Set<string>();
  for (const entry of (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const address = plainAddress(entry);
    if (isIP(address) === 0)
      throw new RangeError(`FRAMEWRIGHT_TRUSTED_PROXIES: "${entry}" is not an IP address.`);
    proxies.add(address);
  }
  return proxies;
}
