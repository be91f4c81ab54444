import type { PlatformLog, PlatformLogRecord } from './platform-log.js';

/** How long a ready marked copy stays downloadable. */
export const EXPORT_LIFETIME_SECONDS = 24 * 3600;
/** `Retry-After` of `export_not_ready`, and the export's `retryAfterSeconds` while preparing. */
export const EXPORT_RETRY_AFTER_SECONDS = 5;

export interface ExportRecord {
  exportId: string;
  appKey: string;
  userId: string;
  status: 'preparing' | 'ready' | 'failed';
  /** `sha256:<hex>` or `ref:<appAssetRef>`: the content version a ready copy is reused for. */
  sourceKey: string;
  mimeType: string;
  filename: string;
  idempotencyKey?: string;
  bodyHash: string;
  /** The source bytes read at creation (marked into `path`). */
  sourcePath: string;
  path?: string;
  byteSize?: number;
  errorCode?: string;
  createdAtMs: number;
  expiresAtMs?: number;
}

/** A ready copy past its life: gone (reads as `failed` with `export_expired`, no `contentUrl`). */
export const isExpiredExport = (record: ExportRecord, nowMs: number): boolean =>
  record.status === 'ready' && (record.expiresAtMs ?? 0) <= nowMs;

/** Marked exports per application and person. */
export class ExportStore {
  private readonly byId = new Map<string, ExportRecord>();
  /** Exports being prepared by this process (one still `preparing` after a restart is prepared again when read). */
  readonly inFlight = new Set<string>();

  constructor(private readonly log?: PlatformLog) {}

  save(record: ExportRecord): void {
    this.byId.set(record.exportId, record);
    this.log?.append('export', record.exportId, record);
  }

  get(exportId: string): ExportRecord | undefined {
    return this.byId.get(exportId);
  }

  /** The person's export of the same content version and declared type that is ready (and not expired) or still in preparation. */
  reusable(
    appKey: string,
    userId: string,
    sourceKey: string,
    mimeType: string,
    nowMs: number,
  ): ExportRecord | undefined {
    return [...this.byId.values()].find(
      (r) =>
        r.appKey === appKey &&
        r.userId === userId &&
        r.sourceKey === sourceKey &&
        r.mimeType === mimeType &&
        (r.status === 'preparing' || (r.status === 'ready' && (r.expiresAtMs ?? 0) > nowMs)),
    );
  }

  /** The newest export made under this key (an expired one too: the caller decides). */
  byKey(appKey: string, userId: string, idempotencyKey: string): ExportRecord | undefined {
    return [...this.byId.values()]
      .filter((r) => r.appKey === appKey && r.userId === userId && r.idempotencyKey === idempotencyKey)
      .sort((a, b) => b.createdAtMs - a.createdAtMs)[0];
  }

  preparing(): ExportRecord[] {
    return [...this.byId.values()].filter((r) => r.status === 'preparing');
  }

  restore(records: readonly PlatformLogRecord[]): void {
    for (const record of records)
      if (record.t === 'export') this.byId.set(record.id, record.v as ExportRecord);
  }

  snapshot(): PlatformLogRecord[] {
    return [...this.byId.values()].map((v) => ({ t: 'export', id: v.exportId, v }));
  }
}
