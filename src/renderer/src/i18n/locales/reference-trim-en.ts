/**
 * English strings of Create's reference trim control, merged into the catalogue when its lazy
 * chunk loads (screens/create/reference-trim-i18n.ts), so they cost the first chunk nothing.
 * Mirrored in reference-trim-zh-CN.ts.
 */
export const referenceTrimEn = {
  referenceTrim: {
    open: 'Trim…',
    title: 'Keep a range of {{label}}',
    hint: 'Only the kept range is sent; the file itself is never changed.',
    start: 'Start (seconds)',
    end: 'End (seconds)',
    kept: 'Kept: {{start}} s – {{end}} s ({{length}} s of {{total}} s)',
    passes: 'The kept range passes the rules.',
    suggest: 'Keep the first {{seconds}} s',
    playRange: 'Play the kept range',
    whole: 'Send the whole file',
  },
};
