import type { Database, Statement } from 'better-sqlite3';
import { fromJson } from './json.js';

/** A named, ordered list of shots (migration 012). */
export interface SequenceRecord {
  readonly id: string;
  readonly name: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export type ShotOrigin = 'new' | 'continue' | 'bridge';

/** One shot: a studio draft at a position of its sequence. */
export interface ShotRecord {
  readonly id: string;
  readonly sequenceId: string;
  readonly position: number;
  readonly draftId: string;
  readonly origin: ShotOrigin;
  /** The shots it was made from (continue: one, bridge: two). */
  readonly sourceShotIds: readonly string[];
  readonly createdAt: number;
}

/**
 * A shot's in and out points (migration 018): frame indices of the result `sourceSha256` at its
 * frame rate `fpsNum/fpsDen`; `inFrame` is the first frame kept, `outFrame` the first one cut.
 */
export interface ShotTrimRecord {
  readonly shotId: string;
  readonly sourceSha256: string;
  readonly fpsNum: number;
  readonly fpsDen: number;
  readonly inFrame: number;
  readonly outFrame: number;
  readonly updatedAt: number;
}

export interface AssemblyChapterRecord {
  readonly title: string;
  readonly startSeconds: number;
  readonly endSeconds: number;
}

export type AssemblyState = 'assembling' | 'ready' | 'failed';

/** One rendering of a sequence; `fingerprint` names what it was rendered from. */
export interface AssemblyRecord {
  readonly id: string;
  readonly sequenceId: string;
  readonly fingerprint: string;
  readonly state: AssemblyState;
  readonly crossfadeSeconds: number;
  readonly localPath: string | undefined;
  readonly sidecarPath: string | undefined;
  readonly sha256: string | undefined;
  readonly byteSize: number | undefined;
  readonly durationSeconds: number | undefined;
  readonly chapters: readonly AssemblyChapterRecord[];
  readonly errorMessage: string | undefined;
  readonly createdAt: number;
  readonly updatedAt: number;
}

interface SequenceRow {
  id: string;
  name: string;
  created_at: number;
  updated_at: number;
}
interface ShotRow {
  id: string;
  sequence_id: string;
  position: number;
  draft_id: string;
  origin: ShotOrigin;
  source_shot_ids_json: string;
  created_at: number;
}
interface AssemblyRow {
  id: string;
  sequence_id: string;
  fingerprint: string;
  state: AssemblyState;
  crossfade_seconds: number;
  local_path: string | null;
  sidecar_path: string | null;
  sha256: string | null;
  byte_size: number | null;
  duration_seconds: number | null;
  chapters_json: string;
  error_message: string | null;
  created_at: number;
  updated_at: number;
}

interface TrimRow {
  shot_id: string;
  source_sha256: string;
  fps_num: number;
  fps_den: number;
  in_frame: number;
  out_frame: number;
  updated_at: number;
}

const toTrim = (r: TrimRow): ShotTrimRecord => ({
  shotId: r.shot_id,
  sourceSha256: r.source_sha256,
  fpsNum: r.fps_num,
  fpsDen: r.fps_den,
  inFrame: r.in_frame,
  outFrame: r.out_frame,
  updatedAt: r.updated_at,
});

const toSequence = (r: SequenceRow): SequenceRecord => ({
  id: r.id,
  name: r.name,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
const toShot = (r: ShotRow): ShotRecord => ({
  id: r.id,
  sequenceId: r.sequence_id,
  position: r.position,
  draftId: r.draft_id,
  origin: r.origin,
  sourceShotIds: fromJson<string[]>(r.source_shot_ids_json),
  createdAt: r.created_at,
});
const toAssembly = (r: AssemblyRow): AssemblyRecord => ({
  id: r.id,
  sequenceId: r.sequence_id,
  fingerprint: r.fingerprint,
  state: r.state,
  crossfadeSeconds: r.crossfade_seconds,
  localPath: r.local_path ?? undefined,
  sidecarPath: r.sidecar_path ?? undefined,
  sha256: r.sha256 ?? undefined,
  byteSize: r.byte_size ?? undefined,
  durationSeconds: r.duration_seconds ?? undefined,
  chapters: fromJson<AssemblyChapterRecord[]>(r.chapters_json),
  errorMessage: r.error_message ?? undefined,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Positions are moved out of the way by this much while a sequence is renumbered. */
const RENUMBER_OFFSET = 1_000_000;

/** Sequences, their shots in order, and their assemblies (migration 012). */
export class SequencesRepository {
  private readonly insertStmt: Statement;
  private readonly renameStmt: Statement;
  private readonly touchStmt: Statement;
  private readonly deleteStmt: Statement<[string]>;
  private readonly getStmt: Statement<[string], SequenceRow>;
  private readonly listStmt: Statement<[], SequenceRow & { shot_count: number }>;
  private readonly shotsStmt: Statement<[string], ShotRow>;
  private readonly insertShotStmt: Statement;
  private readonly deleteShotStmt: Statement;
  private readonly liftStmt: Statement;
  private readonly placeStmt: Statement;
  private readonly sequencesOfDraftStmt: Statement<[string], { sequence_id: string }>;
  private readonly insertAssemblyStmt: Statement;
  private readonly finishAssemblyStmt: Statement;
  private readonly failAssemblyStmt: Statement;
  private readonly getAssemblyStmt: Statement<[string], AssemblyRow>;
  private readonly latestAssemblyStmt: Statement<[string], AssemblyRow>;
  private readonly byFingerprintStmt: Statement<[string, string], AssemblyRow>;
  private readonly assemblingStmt: Statement<[], AssemblyRow>;
  private readonly assembliesOfStmt: Statement<[string], AssemblyRow>;
  private readonly trimsOfStmt: Statement<[string], TrimRow>;
  private readonly setTrimStmt: Statement;
  private readonly clearTrimStmt: Statement<[string]>;

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.insertStmt = db.prepare(
      'INSERT INTO sequences (id, name, created_at, updated_at) VALUES (@id, @name, @now, @now)',
    );
    this.renameStmt = db.prepare('UPDATE sequences SET name = @name, updated_at = @now WHERE id = @id');
    this.touchStmt = db.prepare('UPDATE sequences SET updated_at = @now WHERE id = @id');
    this.deleteStmt = db.prepare('DELETE FROM sequences WHERE id = ?');
    this.getStmt = db.prepare('SELECT * FROM sequences WHERE id = ?');
    this.listStmt = db.prepare(
      `SELECT s.*, (SELECT count(*) FROM sequence_shots h WHERE h.sequence_id = s.id) AS shot_count
       FROM sequences s ORDER BY s.updated_at DESC, s.id`,
    );
    this.shotsStmt = db.prepare('SELECT * FROM sequence_shots WHERE sequence_id = ? ORDER BY position');
    this.insertShotStmt = db.prepare(
      `INSERT INTO sequence_shots (id, sequence_id, position, draft_id, origin, source_shot_ids_json, created_at)
       VALUES (@id, @sequenceId, @position, @draftId, @origin, @sources, @now)`,
    );
    this.deleteShotStmt = db.prepare(
      'DELETE FROM sequence_shots WHERE sequence_id = @sequenceId AND id = @id',
    );
    this.liftStmt = db.prepare(
      `UPDATE sequence_shots SET position = position + ${RENUMBER_OFFSET} WHERE sequence_id = ?`,
    );
    this.placeStmt = db.prepare(
      'UPDATE sequence_shots SET position = @position WHERE sequence_id = @sequenceId AND id = @id',
    );
    this.sequencesOfDraftStmt = db.prepare(
      'SELECT DISTINCT sequence_id FROM sequence_shots WHERE draft_id = ?',
    );
    this.insertAssemblyStmt = db.prepare(
      `INSERT INTO sequence_assemblies (id, sequence_id, fingerprint, state, crossfade_seconds, created_at, updated_at)
       VALUES (@id, @sequenceId, @fingerprint, 'assembling', @crossfadeSeconds, @now, @now)`,
    );
    this.finishAssemblyStmt = db.prepare(
      `UPDATE sequence_assemblies SET state = 'ready', local_path = @localPath, sidecar_path = @sidecarPath,
         sha256 = @sha256, byte_size = @byteSize, duration_seconds = @durationSeconds,
         chapters_json = @chapters, error_message = NULL, updated_at = @now
       WHERE id = @id`,
    );
    this.failAssemblyStmt = db.prepare(
      `UPDATE sequence_assemblies SET state = 'failed', error_message = @message, updated_at = @now WHERE id = @id`,
    );
    this.getAssemblyStmt = db.prepare('SELECT * FROM sequence_assemblies WHERE id = ?');
    this.latestAssemblyStmt = db.prepare(
      'SELECT * FROM sequence_assemblies WHERE sequence_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1',
    );
    this.byFingerprintStmt = db.prepare(
      `SELECT * FROM sequence_assemblies WHERE sequence_id = ? AND fingerprint = ? AND state <> 'failed'
       ORDER BY created_at DESC, rowid DESC LIMIT 1`,
    );
    this.assemblingStmt = db.prepare("SELECT * FROM sequence_assemblies WHERE state = 'assembling'");
    this.assembliesOfStmt = db.prepare('SELECT * FROM sequence_assemblies WHERE sequence_id = ?');
    this.trimsOfStmt = db.prepare(
      `SELECT t.* FROM sequence_shot_trims t JOIN sequence_shots s ON s.id = t.shot_id
       WHERE s.sequence_id = ?`,
    );
    this.setTrimStmt = db.prepare(
      `INSERT INTO sequence_shot_trims (shot_id, source_sha256, fps_num, fps_den, in_frame, out_frame, updated_at)
       VALUES (@shotId, @sourceSha256, @fpsNum, @fpsDen, @inFrame, @outFrame, @now)
       ON CONFLICT (shot_id) DO UPDATE SET source_sha256 = excluded.source_sha256, fps_num = excluded.fps_num,
         fps_den = excluded.fps_den, in_frame = excluded.in_frame, out_frame = excluded.out_frame,
         updated_at = excluded.updated_at`,
    );
    this.clearTrimStmt = db.prepare('DELETE FROM sequence_shot_trims WHERE shot_id = ?');
  }

  create(id: string, name: string): SequenceRecord {
    this.insertStmt.run({ id, name, now: this.now() });
    return this.get(id)!;
  }

  rename(id: string, name: string): boolean {
    return this.renameStmt.run({ id, name, now: this.now() }).changes > 0;
  }

  /** Removes the sequence with its shots and assemblies (not their drafts, jobs or files). */
  delete(id: string): boolean {
    return this.deleteStmt.run(id).changes > 0;
  }

  get(id: string): SequenceRecord | undefined {
    const row = this.getStmt.get(id);
    return row ? toSequence(row) : undefined;
  }

  /** Every sequence, the most recently changed first, with its number of shots. */
  list(): (SequenceRecord & { shotCount: number })[] {
    return this.listStmt.all().map((r) => ({ ...toSequence(r), shotCount: r.shot_count }));
  }

  /** The shots of a sequence in order. */
  shots(sequenceId: string): ShotRecord[] {
    return this.shotsStmt.all(sequenceId).map(toShot);
  }

  /** The sequences a draft is a shot of. */
  sequencesOfDraft(draftId: string): string[] {
    return this.sequencesOfDraftStmt.all(draftId).map((r) => r.sequence_id);
  }

  /** Inserts a shot at `position` (default: the end); the shots from there on move one place right. */
  insertShot(shot: {
    id: string;
    sequenceId: string;
    draftId: string;
    origin: ShotOrigin;
    sourceShotIds: readonly string[];
    position?: number;
  }): void {
    this.db.transaction(() => {
      const order = this.shots(shot.sequenceId).map((s) => s.id);
      const at = Math.min(shot.position ?? order.length, order.length);
      this.liftStmt.run(shot.sequenceId);
      this.insertShotStmt.run({
        id: shot.id,
        sequenceId: shot.sequenceId,
        position: at,
        draftId: shot.draftId,
        origin: shot.origin,
        sources: JSON.stringify(shot.sourceShotIds),
        now: this.now(),
      });
      order.splice(at, 0, shot.id);
      this.place(shot.sequenceId, order);
    })();
  }

  /** Moves a shot to `toPosition` (clamped to the last place); false when it is not in the sequence. */
  moveShot(sequenceId: string, shotId: string, toPosition: number): boolean {
    return this.db.transaction(() => {
      const order = this.shots(sequenceId).map((s) => s.id);
      const from = order.indexOf(shotId);
      if (from < 0) return false;
      order.splice(from, 1);
      order.splice(Math.min(toPosition, order.length), 0, shotId);
      this.liftStmt.run(sequenceId);
      this.place(sequenceId, order);
      return true;
    })();
  }

  /**
   * Takes a shot out; the later shots close the gap. The shot is kept aside (its place, draft,
   * origin and trim) so {@link restoreShot} can put it back.
   */
  removeShot(sequenceId: string, shotId: string): boolean {
    return this.db.transaction(() => {
      const shot = this.shots(sequenceId).find((s) => s.id === shotId);
      if (!shot) return false;
      const trim = this.trimsOf(sequenceId).get(shotId);
      this.db
        .prepare(
          `INSERT OR REPLACE INTO sequence_removed_shots
             (id, sequence_id, position, draft_id, origin, source_shot_ids_json, trim_json, created_at, removed_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          shot.id,
          sequenceId,
          shot.position,
          shot.draftId,
          shot.origin,
          JSON.stringify(shot.sourceShotIds),
          trim ? JSON.stringify(trim) : null,
          shot.createdAt,
          this.now(),
        );
      this.deleteShotStmt.run({ sequenceId, id: shotId });
      const order = this.shots(sequenceId).map((s) => s.id);
      this.liftStmt.run(sequenceId);
      this.place(sequenceId, order);
      return true;
    })();
  }

  /**
   * Puts a removed shot back at the place it had (or the end, when the sequence is shorter now),
   * with its trim; false when it is not among the sequence's removed shots.
   */
  restoreShot(sequenceId: string, shotId: string): boolean {
    return this.db.transaction(() => {
      const row = this.db
        .prepare('SELECT * FROM sequence_removed_shots WHERE id = ? AND sequence_id = ?')
        .get(shotId, sequenceId) as
        | {
            position: number;
            draft_id: string;
            origin: ShotOrigin;
            source_shot_ids_json: string;
            trim_json: string | null;
            created_at: number;
          }
        | undefined;
      if (!row) return false;
      this.db.prepare('DELETE FROM sequence_removed_shots WHERE id = ?').run(shotId);
      const order = this.shots(sequenceId).map((s) => s.id);
      const at = Math.min(row.position, order.length);
      this.liftStmt.run(sequenceId);
      this.insertShotStmt.run({
        id: shotId,
        sequenceId,
        position: at,
        draftId: row.draft_id,
        origin: row.origin,
        sources: row.source_shot_ids_json,
        now: row.created_at,
      });
      order.splice(at, 0, shotId);
      this.place(sequenceId, order);
      if (row.trim_json) {
        const trim = JSON.parse(row.trim_json) as ShotTrimRecord;
        this.setTrimStmt.run({ ...trim, shotId, now: trim.updatedAt });
      }
      return true;
    })();
  }

  private place(sequenceId: string, order: readonly string[]): void {
    order.forEach((id, position) => this.placeStmt.run({ sequenceId, id, position }));
    this.touchStmt.run({ id: sequenceId, now: this.now() });
  }

  startAssembly(a: {
    id: string;
    sequenceId: string;
    fingerprint: string;
    crossfadeSeconds: number;
  }): AssemblyRecord {
    this.insertAssemblyStmt.run({ ...a, now: this.now() });
    return this.assembly(a.id)!;
  }

  finishAssembly(
    id: string,
    facts: {
      localPath: string;
      sidecarPath: string;
      sha256: string;
      byteSize: number;
      durationSeconds: number;
      chapters: readonly AssemblyChapterRecord[];
    },
  ): void {
    this.finishAssemblyStmt.run({ id, ...facts, chapters: JSON.stringify(facts.chapters), now: this.now() });
  }

  failAssembly(id: string, message: string): void {
    this.failAssemblyStmt.run({ id, message, now: this.now() });
  }

  assembly(id: string): AssemblyRecord | undefined {
    const row = this.getAssemblyStmt.get(id);
    return row ? toAssembly(row) : undefined;
  }

  latestAssembly(sequenceId: string): AssemblyRecord | undefined {
    const row = this.latestAssemblyStmt.get(sequenceId);
    return row ? toAssembly(row) : undefined;
  }

  /** The newest assembly (not failed) rendered from exactly this fingerprint. */
  assemblyWithFingerprint(sequenceId: string, fingerprint: string): AssemblyRecord | undefined {
    const row = this.byFingerprintStmt.get(sequenceId, fingerprint);
    return row ? toAssembly(row) : undefined;
  }

  /** Every assembly of a sequence. */
  assembliesOf(sequenceId: string): AssemblyRecord[] {
    return this.assembliesOfStmt.all(sequenceId).map(toAssembly);
  }

  /** Assemblies left 'assembling' (a process that stopped mid-render). */
  unfinishedAssemblies(): AssemblyRecord[] {
    return this.assemblingStmt.all().map(toAssembly);
  }

  /** The trims of a sequence's shots, by shot id (migration 018). */
  trimsOf(sequenceId: string): Map<string, ShotTrimRecord> {
    return new Map(this.trimsOfStmt.all(sequenceId).map((r) => [r.shot_id, toTrim(r)]));
  }

  /** Sets (or replaces) a shot's in and out points; the sequence counts as changed. */
  setTrim(sequenceId: string, trim: Omit<ShotTrimRecord, 'updatedAt'>): void {
    this.db.transaction(() => {
      const now = this.now();
      this.setTrimStmt.run({ ...trim, now });
      this.touchStmt.run({ id: sequenceId, now });
    })();
  }

  /** Clears a shot's trim (the whole result is used again); false when it had none. */
  clearTrim(sequenceId: string, shotId: string): boolean {
    return this.db.transaction(() => {
      const cleared = this.clearTrimStmt.run(shotId).changes > 0;
      if (cleared) this.touchStmt.run({ id: sequenceId, now: this.now() });
      return cleared;
    })();
  }
}
