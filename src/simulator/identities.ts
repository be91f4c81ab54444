import { createHash } from 'node:crypto';

/** The fixed local test token of the simulation profile (printed at start-up; not a secret). */
export const FIXED_LOCAL_TEST_TOKEN = 'fw-local-test-token';

export interface Identity {
  /** Stable opaque id derived from the token; never the token itself. */
  id: string;
  /** Display label: `local-test` for the fixed token, `token-N` for the N-th `--token`. */
  label: string;
}

/** Resolves `Authorization: Bearer <token>` to one identity; every token is its own identity. */
export class IdentityRegistry {
  private readonly byToken = new Map<string, Identity>();

  constructor(extraTokens: readonly string[] = []) {
    this.add(FIXED_LOCAL_TEST_TOKEN, 'local-test');
    extraTokens.forEach((token, index) => {
      if (token && !this.byToken.has(token)) this.add(token, `token-${index + 1}`);
    });
  }

  private add(token: string, label: string): void {
    const id = 'idn_' + createHash('sha256').update(token).digest('hex').slice(0, 16);
    this.byToken.set(token, { id, label });
  }

  resolve(authorization: string | undefined): Identity | undefined {
    if (!authorization) return undefined;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match?.[1]) return undefined;
    return this.byToken.get(match[1]);
  }

  get size(): number {
    return this.byToken.size;
  }
}
