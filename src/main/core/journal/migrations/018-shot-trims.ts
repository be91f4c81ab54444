import type { Migration } from './migration.js';

/**
 * Trim (issue 31): a shot's in and out points, kept beside the shot (its source file is never
 * changed). They are frame indices of the result they were set on, not seconds: a frame index is
 * exact (no float drift between the journal, ffmpeg's `trim` and the frame that continue takes),
 * and seconds are derived as `frame × fps_den / fps_num` with the result's own frame rate, kept as
 * the rational ffprobe reports (24/1, 30000/1001…). `in_frame` is the first kept frame, `out_frame`
 * the first frame cut (exclusive), so the kept length is `out_frame − in_frame` frames.
 * `source_sha256` names the result measured: a trim of another result does not apply. The row goes
 * with its shot.
 */
export const migration018ShotTrims: Migration = {
  version: 18,
  name: 'shot-trims',
  up(db) {
    db.exec(`
      CREATE TABLE sequence_shot_trims (
        shot_id        TEXT PRIMARY KEY NOT NULL REFERENCES sequence_shots (id) ON DELETE CASCADE,
        source_sha256  TEXT NOT NULL CHECK (length(source_sha256) = 64),
        fps_num        INTEGER NOT NULL CHECK (fps_num > 0),
        fps_den        INTEGER NOT NULL CHECK (fps_den > 0),
        in_frame       INTEGER NOT NULL CHECK (in_frame >= 0),
        out_frame      INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL,
        CHECK (out_frame > in_frame)
      ) STRICT;
    `);
  },
};
