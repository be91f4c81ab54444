import type { Database, Statement } from 'better-sqlite3';
import type { DeliveryFitName, DeliveryPresetName } from '../../../shared/delivery-formats.js';

export type DeliveryState = 'rendering' | 'ready' | 'failed' | 'cancelled';

/** One delivery of a sequence in a format (migration 020); `reuseKey` names what it was made from. */
export interface DeliveryRecord {
  readonly id: string;
  readonly sequenceId: string;
  readonly preset: DeliveryPresetName;
  readonly fit: DeliveryFitName;
  readonly loudnessTarget: number;
  readonly burnCaptions: boolean;
  readonly reuseKey: string;
  readonly state: DeliveryState;
  readonly localPath: string | undefined;
  readonly sidecarPath: string | undefined;
  readonly sha256: string | undefined;
  readonly byteSize: number | undefined;
  readonly durationSeconds: number | undefined;
  readonly measuredLufs: number | undefined;
  readonly errorMessage: string | undefined;
  readonly createdAt: number;
  readonly updatedAt: number;
}

interface DeliveryRow {
  id: string;
  sequence_id: string;
  preset: DeliveryPresetName;
  fit: DeliveryFitName;
  loudness_target: number;
  burn_captions: number;
  reuse_key: string;
  state: DeliveryState;
  local_path: string | null;
  sidecar_path: string | null;
  sha256: string | null;
  byte_size: number | null;
  duration_seconds: number | null;
  measured_lufs: number | null;
  error_message: string | null;
  created_at: number;
  updated_at: number;
}

const toDelivery = (r: DeliveryRow): DeliveryRecord => ({
  id: r.id,
  sequenceId: r.sequence_id,
  preset: r.preset,
  fit: r.fit,
  loudnessTarget: r.loudness_target,
  burnCaptions: r.burn_captions === 1,
  reuseKey: r.reuse_key,
  state: r.state,
  localPath: r.local_path ?? undefined,
  sidecarPath: r.sidecar_path ?? undefined,
  sha256: r.sha256 ?? undefined,
  byteSize: r.byte_size ?? undefined,
  durationSeconds: r.duration_seconds ?? undefined,
  measuredLufs: r.measured_lufs ?? undefined,
  errorMessage: r.error_message ?? undefined,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** The deliveries of sequences (migration 020). */
export class DeliveriesRepository {
  private readonly insertStmt: Statement;
  private readonly finishStmt: Statement;
  private readonly endStmt: Statement;
  private readonly getStmt: Statement<[string], DeliveryRow>;
  private readonly ofSequenceStmt: Statement<[string], DeliveryRow>;
  private readonly byKeyStmt: Statement<[string, string], DeliveryRow>;
  private readonly renderingStmt: Statement<[], DeliveryRow>;
  private readonly readyStmt: Statement<[], DeliveryRow>;

  constructor(
    db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.insertStmt = db.prepare(
      `INSERT INTO sequence_deliveries (id, sequence_id, preset, fit, loudness_target, burn_captions, reuse_key,
         state, created_at, updated_at)
       VALUES (@id, @sequenceId, @preset, @fit, @loudnessTarget, @burnCaptions, @reuseKey, 'rendering', @now, @now)`,
    );
    this.finishStmt = db.prepare(
      `UPDATE sequence_deliveries SET state = 'ready', local_path = @localPath, sidecar_path = @sidecarPath,
         sha256 = @sha256, byte_size = @byteSize, duration_seconds = @durationSeconds,
         measured_lufs = @measuredLufs, error_message = NULL, updated_at = @now
       WHERE id = @id AND state = 'rendering'`,
    );
    this.endStmt = db.prepare(
      `UPDATE sequence_deliveries SET state = @state, error_message = @message, updated_at = @now
       WHERE id = @id AND state = 'rendering'`,
    );
    this.getStmt = db.prepare('SELECT * FROM sequence_deliveries WHERE id = ?');
    this.ofSequenceStmt = db.prepare(
      'SELECT * FROM sequence_deliveries WHERE sequence_id = ? ORDER BY created_at DESC, rowid DESC',
    );
    this.byKeyStmt = db.prepare(
      `SELECT * FROM sequence_deliveries WHERE sequence_id = ? AND reuse_key = ? AND state IN ('rendering', 'ready')
       ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    );
    this.renderingStmt = db.prepare("SELECT * FROM sequence_deliveries WHERE state = 'rendering'");
    this.readyStmt = db.prepare(
      "SELECT * FROM sequence_deliveries WHERE state = 'ready' ORDER BY created_at DESC, rowid DESC LIMIT 500",
    );
  }

  start(d: {
    id: string;
    sequenceId: string;
    preset: DeliveryPresetName;
    fit: DeliveryFitName;
    loudnessTarget: number;
    burnCaptions: boolean;
    reuseKey: string;
  }): DeliveryRecord {
    this.insertStmt.run({ ...d, burnCaptions: d.burnCaptions ? 1 : 0, now: this.now() });
    return this.get(d.id)!;
  }

  /** Records the verified file; false when the delivery was no longer rendering (cancelled). */
  finish(
    id: string,
    facts: {
      localPath: string;
      sidecarPath: string;
      sha256: string;
      byteSize: number;
      durationSeconds: number;
      measuredLufs: number;
    },
  ): boolean {
    return this.finishStmt.run({ id, ...facts, now: this.now() }).changes > 0;
  }

  /** Ends a delivery still rendering as failed or cancelled. */
  end(id: string, state: 'failed' | 'cancelled', message: string): boolean {
    return this.endStmt.run({ id, state, message, now: this.now() }).changes > 0;
  }

  get(id: string): DeliveryRecord | undefined {
    const row = this.getStmt.get(id);
    return row ? toDelivery(row) : undefined;
  }

  /** A sequence's deliveries, newest first. */
  ofSequence(sequenceId: string): DeliveryRecord[] {
    return this.ofSequenceStmt.all(sequenceId).map(toDelivery);
  }

  /** The newest delivery (rendering or ready) made from exactly this reuse key. */
  withReuseKey(sequenceId: string, reuseKey: string): DeliveryRecord | undefined {
    const row = this.byKeyStmt.get(sequenceId, reuseKey);
    return row ? toDelivery(row) : undefined;
  }

  /** The ready deliveries of every sequence, newest first (at most 500). */
  ready(): DeliveryRecord[] {
    return this.readyStmt.all().map(toDelivery);
  }

  /** Deliveries left 'rendering' (this process's, or one that stopped mid-render). */
  rendering(): DeliveryRecord[] {
    return this.renderingStmt.all().map(toDelivery);
  }
}
