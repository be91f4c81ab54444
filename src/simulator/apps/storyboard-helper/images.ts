import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SimClock } from '../../clock.js';

/** A panel image address stays readable this long (simulator clock). */
export const IMAGE_URL_LIFETIME_SECONDS = 3600;

/**
 * The app's own image storage: panel images are served at signed, expiring addresses
 * (`/images/{panelId}.png?expires=…&signature=…`), as an application's storage signs a
 * `readUrl`, so a caller can hand one to the platform runtime as a job input. The signing key
 * is random per simulator process: addresses do not survive a restart (read the board again).
 */
export class ImageSigner {
  private readonly key = randomBytes(32);

  constructor(private readonly clock: SimClock) {}

  private sign(panelId: string, expiresMs: number): string {
    return createHmac('sha256', this.key).update(`${panelId}\n${expiresMs}`).digest('hex');
  }

  /** The query of a fresh address of `panelId`, and when it expires. */
  issue(panelId: string): { query: string; expiresAtMs: number } {
    const expiresAtMs = this.clock.nowMs() + IMAGE_URL_LIFETIME_SECONDS * 1000;
    return {
      query: `expires=${expiresAtMs}&signature=${this.sign(panelId, expiresAtMs)}`,
      expiresAtMs,
    };
  }

  /** Whether an address of `panelId` is genuine and unexpired. */
  verify(panelId: string, query: URLSearchParams): boolean {
    const expires = Number(query.get('expires'));
    const signature = query.get('signature') ?? '';
    if (!Number.isSafeInteger(expires) || expires <= this.clock.nowMs()) return false;
    const expected = Buffer.from(this.sign(panelId, expires), 'hex');
    const given = Buffer.from(signature, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
}
