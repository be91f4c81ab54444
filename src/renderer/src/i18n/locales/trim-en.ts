/**
 * English strings of the trim strip in Sequences (issue 31), merged into the catalogue when the
 * lazy Sequences chunk loads (screens/sequences/trim-i18n.ts), so they cost the first chunk
 * nothing. Mirrored in trim-zh-CN.ts.
 */
export const trimEn = {
  trim: {
    open: 'Trim',
    title: 'Trim {{label}}',
    preview: 'The frame at the playhead',
    inHandle: 'In point',
    outHandle: 'Out point',
    playhead: 'Playhead',
    at: '{{seconds}} s, frame {{frame}}',
    keys: 'I sets the in point and O the out point at the playhead; ← and → move it by one frame.',
    kept: 'Kept {{seconds}} s of {{total}} s ({{frames}} frames)',
    save: 'Save trim',
    clear: 'Use the whole shot',
    cancel: 'Cancel',
    badge: 'Trimmed {{from}}–{{to}} s',
  },
};
