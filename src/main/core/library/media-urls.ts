import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { setNewest } from '../bounded-map.js';
import type { StudioHost } from './studio-host.js';

/*
 * The media URLs the core hands a page, and their check: routes and signatures only, nothing that
 * reads a file (the resolver, `media-resolver.ts`, serves them). It imports nothing of the core but
 * the import-free bounded map, so views that name media (`job-views.ts`) load without the
 * resolver's file sniffing.
 */

/** How many evenly spaced frames of a verified video the Library card scrubs through. */
export const FRAME_COUNT = 6;

/** The media route of frame `n` (0-based, below {@link FRAME_COUNT}) of a library output's route. */
export function frameRoute(outputRoute: string, n: number): string {
  return `${outputRoute}/frame/${n}`;
}

/**
 * Library routes are numbered rows, so their URLs carry a signature: an HMAC of the route under a
 * key this process draws at start and never shares. A URL is then a capability for that one file
 * (the page cannot forge another, and no session credential rides on media requests, which `<img>`
 * and `<video>` cannot give a header). Staged routes need none: their ids are random UUIDs.
 */
const MEDIA_URL_KEY = randomBytes(32);
const SIGNATURE_PARAM = 's';

function signatureOf(route: string): string {
  return createHmac('sha256', MEDIA_URL_KEY).update(route).digest('base64url').slice(0, 32);
}

/**
 * The signatures of the routes this process handed out, newest last, at most `SIGNED_ROUTES_MAX`:
 * a page polling its jobs gets the same URLs every time, and one HMAC per URL was a tenth of a
 * busy backend's work. (The check of a request computes its own: a caller's routes never fill it.)
 */
const SIGNED_ROUTES_MAX = 20_000;
const signedRoutes = new Map<string, string>();
function handedOutSignatureOf(route: string): string {
  const known = signedRoutes.get(route);
  if (known !== undefined) return known;
  const signature = signatureOf(route);
  setNewest(signedRoutes, route, signature, SIGNED_ROUTES_MAX);
  return signature;
}

/** Routes to the library (results, assemblies, deliveries) are signed; staged ones are random UUIDs. */
const isSigned = (route: string) => /^(library|assembly|delivery)\//.test(route.replace(/^\//, ''));

/** Whether a request's signature is the route's (always, for a staged route). */
export function signatureMatches(route: string, signature: string | null | undefined): boolean {
  if (!isSigned(route)) return true;
  if (typeof signature !== 'string') return false;
  const expected = Buffer.from(signatureOf(route.replace(/^\//, '')));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** The URL of a media route as the host serves it to its page, signed where the route needs it. */
export function mediaUrl(host: Pick<StudioHost, 'mediaBase'>, route: string): string {
  const base = `${host.mediaBase}${route}`;
  return isSigned(route) ? `${base}?${SIGNATURE_PARAM}=${handedOutSignatureOf(route)}` : base;
}

/** The signature a media request carries (the `s` query parameter), for `MediaResolver.resolve`. */
export function mediaSignatureOf(url: URL): string | null {
  return url.searchParams.get(SIGNATURE_PARAM);
}
