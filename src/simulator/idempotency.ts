import { createHash } from 'node:crypto';
import { ApiError } from './errors.js';
import { canonicalJson, isVisibleAscii } from './http.js';

export type IdempotentOperation =
  'media.generation' | 'image.generation' | 'audio.generation' | 'prompt.optimization';

export interface IdempotencyRecord {
  identityId: string;
  operation: IdempotentOperation;
  key: string;
  model: string;
  bodyHash: string;
  /** Job id or optimization id created under this key. */
  resourceId: string;
  /** How many resources this key created (must stay 1). */
  created: number;
  replays: number;
  firstSeenMs: number;
}

export const IDEMPOTENCY_KEY_MAX_BYTES = 255;

export function bodyHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** Validates an `Idempotency-Key` header value (visible ASCII, at most 255 bytes). */
export function checkIdempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!isVisibleAscii(value, IDEMPOTENCY_KEY_MAX_BYTES)) {
    throw new ApiError(
      400,
      'invalid_idempotency_key',
      `Idempotency-Key must be visible ASCII of 1..${IDEMPOTENCY_KEY_MAX_BYTES} bytes.`,
      {
        details: { header: 'Idempotency-Key' },
      },
    );
  }
  return value;
}

/** Idempotency records per identity, operation and key: one key never maps to two bodies. */
export class IdempotencyStore {
  private readonly records = new Map<string, IdempotencyRecord>();

  private static slot(identityId: string, operation: IdempotentOperation, key: string): string {
    return `${identityId}\u0000${operation}\u0000${key}`;
  }

  /**
   * The stored record for a replay of the same body; throws 409 when the key was used with a
   * different body; undefined when the key is new.
   */
  lookup(
    identityId: string,
    operation: IdempotentOperation,
    key: string,
    hash: string,
  ): IdempotencyRecord | undefined {
    const record = this.records.get(IdempotencyStore.slot(identityId, operation, key));
    if (!record) return undefined;
    if (record.bodyHash !== hash) {
      throw new ApiError(
        409,
        'idempotency_conflict',
        'This Idempotency-Key was already used with a different request body.',
        {
          details: { header: 'Idempotency-Key', resourceId: record.resourceId },
        },
      );
    }
    record.replays += 1;
    return record;
  }

  remember(record: Omit<IdempotencyRecord, 'created' | 'replays'>): IdempotencyRecord {
    const slot = IdempotencyStore.slot(record.identityId, record.operation, record.key);
    const existing = this.records.get(slot);
    if (existing) {
      existing.created += 1;
      return existing;
    }
    const stored: IdempotencyRecord = { ...record, created: 1, replays: 0 };
    this.records.set(slot, stored);
    return stored;
  }

  /** Puts back a record read from the state log. */
  restore(record: IdempotencyRecord): void {
    this.records.set(IdempotencyStore.slot(record.identityId, record.operation, record.key), { ...record });
  }

  all(): IdempotencyRecord[] {
    return [...this.records.values()];
  }

  listFor(identityId: string): IdempotencyRecord[] {
    return [...this.records.values()].filter((record) => record.identityId === identityId);
  }
}
