import type { Database } from 'better-sqlite3';

/** A sequence's music bed and mix settings (migration 019). */
export interface SoundtrackRecord {
  readonly sequenceId: string;
  readonly music:
    | { source: 'library'; jobRowId: number }
    | { source: 'generated'; prompt: string; model: string | null; idempotencyKey: string }
    | null;
  readonly musicGainDb: number;
  readonly duckDb: number;
  readonly updatedAt: number;
}

/** A transcript segment of a dropped voice file, in seconds from the line's start. */
export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
}

/** A voice-over line (migration 019). */
export interface VoiceLineRecord {
  readonly id: string;
  readonly sequenceId: string;
  readonly source: 'generated' | 'file';
  readonly text: string;
  readonly atSeconds: number;
  readonly gainDb: number;
  readonly model: string | null;
  readonly speaker: string | null;
  /** A generated line's speech job key (recorded before the billed call). */
  readonly idempotencyKey: string | null;
  readonly filePath: string | null;
  readonly fileName: string | null;
  readonly fileSha256: string | null;
  /** A file line's transcript, once transcribed. */
  readonly transcript: readonly TranscriptSegment[] | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A caption cue's times set by hand (migration 024): seconds from its line's start. */
export interface CaptionEditRecord {
  readonly lineId: string;
  readonly cueIndex: number;
  /** The cue's text when it was edited: the edit applies only while the cue reads the same. */
  readonly cueText: string;
  readonly startOffset: number;
  readonly endOffset: number;
}

/** The mix defaults: music 12 dB under the film's own level, ducking 12 dB more under a voice. */
export const DEFAULT_MUSIC_GAIN_DB = -12;
export const DEFAULT_DUCK_DB = 12;

interface SoundtrackRow {
  sequence_id: string;
  music_source: 'library' | 'generated' | null;
  music_job_row_id: number | null;
  music_prompt: string | null;
  music_model: string | null;
  music_idempotency_key: string | null;
  music_gain_db: number;
  duck_db: number;
  updated_at: number;
}

interface VoiceRow {
  id: string;
  sequence_id: string;
  source: 'generated' | 'file';
  text: string;
  at_seconds: number;
  gain_db: number;
  model: string | null;
  speaker: string | null;
  idempotency_key: string | null;
  file_path: string | null;
  file_name: string | null;
  file_sha256: string | null;
  transcript_json: string | null;
  created_at: number;
  updated_at: number;
}

/** Sound tracks of sequences: the music bed, gains, duck amount and voice-over lines. */
export class SoundtracksRepository {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {}

  /** The sequence's sound track settings (the defaults when it has none yet). */
  get(sequenceId: string): SoundtrackRecord {
    const row = this.db
      .prepare('SELECT * FROM sequence_soundtracks WHERE sequence_id = ?')
      .get(sequenceId) as SoundtrackRow | undefined;
    if (!row)
      return {
        sequenceId,
        music: null,
        musicGainDb: DEFAULT_MUSIC_GAIN_DB,
        duckDb: DEFAULT_DUCK_DB,
        updatedAt: 0,
      };
    return {
      sequenceId,
      music:
        row.music_source === 'library'
          ? { source: 'library', jobRowId: row.music_job_row_id! }
          : row.music_source === 'generated'
            ? {
                source: 'generated',
                prompt: row.music_prompt!,
                model: row.music_model,
                idempotencyKey: row.music_idempotency_key!,
              }
            : null,
      musicGainDb: row.music_gain_db,
      duckDb: row.duck_db,
      updatedAt: row.updated_at,
    };
  }

  /** Sets the music bed (null: none), keeping the gains. */
  setMusic(sequenceId: string, music: SoundtrackRecord['music']): void {
    this.ensure(sequenceId);
    this.db
      .prepare(
        `UPDATE sequence_soundtracks SET music_source = ?, music_job_row_id = ?, music_prompt = ?, music_model = ?,
           music_idempotency_key = ?, updated_at = ? WHERE sequence_id = ?`,
      )
      .run(
        music?.source ?? null,
        music?.source === 'library' ? music.jobRowId : null,
        music?.source === 'generated' ? music.prompt : null,
        music?.source === 'generated' ? music.model : null,
        music?.source === 'generated' ? music.idempotencyKey : null,
        this.now(),
        sequenceId,
      );
  }

  setLevels(sequenceId: string, levels: { musicGainDb?: number; duckDb?: number }): void {
    this.ensure(sequenceId);
    this.db
      .prepare(
        `UPDATE sequence_soundtracks SET music_gain_db = coalesce(?, music_gain_db), duck_db = coalesce(?, duck_db),
           updated_at = ? WHERE sequence_id = ?`,
      )
      .run(levels.musicGainDb ?? null, levels.duckDb ?? null, this.now(), sequenceId);
  }

  /** The sequence's voice lines by time. */
  voices(sequenceId: string): VoiceLineRecord[] {
    const rows = this.db
      .prepare('SELECT * FROM sequence_voice_lines WHERE sequence_id = ? ORDER BY at_seconds, created_at, id')
      .all(sequenceId) as VoiceRow[];
    return rows.map(voiceOf);
  }

  voice(lineId: string): VoiceLineRecord | undefined {
    const row = this.db.prepare('SELECT * FROM sequence_voice_lines WHERE id = ?').get(lineId) as
      VoiceRow | undefined;
    return row ? voiceOf(row) : undefined;
  }

  addVoice(
    line: Pick<VoiceLineRecord, 'id' | 'sequenceId' | 'source' | 'text' | 'atSeconds' | 'gainDb'> &
      Partial<
        Pick<VoiceLineRecord, 'model' | 'speaker' | 'idempotencyKey' | 'filePath' | 'fileName' | 'fileSha256'>
      >,
  ): VoiceLineRecord {
    const now = this.now();
    this.db
      .prepare(
        `INSERT INTO sequence_voice_lines (id, sequence_id, source, text, at_seconds, gain_db, model, speaker,
           idempotency_key, file_path, file_name, file_sha256, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        line.id,
        line.sequenceId,
        line.source,
        line.text,
        line.atSeconds,
        line.gainDb,
        line.model ?? null,
        line.speaker ?? null,
        line.idempotencyKey ?? null,
        line.filePath ?? null,
        line.fileName ?? null,
        line.fileSha256 ?? null,
        now,
        now,
      );
    return this.voice(line.id)!;
  }

  /** Moves, re-levels or re-words a line (a new text comes with a new speech key). */
  updateVoice(
    lineId: string,
    change: { atSeconds?: number; gainDb?: number; text?: string; idempotencyKey?: string },
  ): void {
    this.db
      .prepare(
        `UPDATE sequence_voice_lines SET at_seconds = coalesce(?, at_seconds), gain_db = coalesce(?, gain_db),
           text = coalesce(?, text), idempotency_key = coalesce(?, idempotency_key), updated_at = ? WHERE id = ?`,
      )
      .run(
        change.atSeconds ?? null,
        change.gainDb ?? null,
        change.text ?? null,
        change.idempotencyKey ?? null,
        this.now(),
        lineId,
      );
  }

  setTranscript(lineId: string, segments: readonly TranscriptSegment[]): void {
    this.db
      .prepare('UPDATE sequence_voice_lines SET transcript_json = ?, updated_at = ? WHERE id = ?')
      .run(JSON.stringify(segments), this.now(), lineId);
  }

  removeVoice(lineId: string): boolean {
    return this.db.prepare('DELETE FROM sequence_voice_lines WHERE id = ?').run(lineId).changes > 0;
  }

  /** The hand-set caption times of a sequence's lines, by `lineId:cueIndex`. */
  captionEdits(sequenceId: string): Map<string, CaptionEditRecord> {
    const rows = this.db
      .prepare(
        `SELECT e.* FROM sequence_caption_edits e JOIN sequence_voice_lines l ON l.id = e.line_id
         WHERE l.sequence_id = ?`,
      )
      .all(sequenceId) as {
      line_id: string;
      cue_index: number;
      cue_text: string;
      start_offset: number;
      end_offset: number;
    }[];
    return new Map(
      rows.map((r) => [
        `${r.line_id}:${r.cue_index}`,
        {
          lineId: r.line_id,
          cueIndex: r.cue_index,
          cueText: r.cue_text,
          startOffset: r.start_offset,
          endOffset: r.end_offset,
        },
      ]),
    );
  }

  setCaptionEdit(edit: CaptionEditRecord): void {
    this.db
      .prepare(
        `INSERT INTO sequence_caption_edits (line_id, cue_index, cue_text, start_offset, end_offset, updated_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (line_id, cue_index) DO UPDATE SET cue_text = excluded.cue_text,
           start_offset = excluded.start_offset, end_offset = excluded.end_offset, updated_at = excluded.updated_at`,
      )
      .run(edit.lineId, edit.cueIndex, edit.cueText, edit.startOffset, edit.endOffset, this.now());
  }

  clearCaptionEdit(lineId: string, cueIndex: number): void {
    this.db
      .prepare('DELETE FROM sequence_caption_edits WHERE line_id = ? AND cue_index = ?')
      .run(lineId, cueIndex);
  }

  private ensure(sequenceId: string): void {
    this.db
      .prepare(
        `INSERT INTO sequence_soundtracks (sequence_id, music_gain_db, duck_db, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (sequence_id) DO NOTHING`,
      )
      .run(sequenceId, DEFAULT_MUSIC_GAIN_DB, DEFAULT_DUCK_DB, this.now());
  }
}

function voiceOf(row: VoiceRow): VoiceLineRecord {
  return {
    id: row.id,
    sequenceId: row.sequence_id,
    source: row.source,
    text: row.text,
    atSeconds: row.at_seconds,
    gainDb: row.gain_db,
    model: row.model,
    speaker: row.speaker,
    idempotencyKey: row.idempotency_key,
    filePath: row.file_path,
    fileName: row.file_name,
    fileSha256: row.file_sha256,
    transcript: row.transcript_json ? (JSON.parse(row.transcript_json) as TranscriptSegment[]) : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
