/**
 * English strings of Storyboard Helper in Sequences (import a board, send the film back), merged
 * into the catalogue when the lazy Sequences chunk loads (screens/sequences/storyboards-i18n.ts), so
 * they cost the first chunk nothing. Mirrored in storyboards-zh-CN.ts.
 */
export const storyboardsEn = {
  storyboards: {
    importAction: 'Import from Storyboard Helper',
    dialogTitle: 'Import a board from Storyboard Helper',
    dialogBody:
      'Each panel becomes a shot with its prompt and its image as the first frame. Nothing is generated until you press Generate.',
    loading: 'Loading your boards…',
    none: 'You have no boards in Storyboard Helper yet.',
    board: 'Board',
    panels: 'Panels',
    updated: 'Updated',
    actions: 'Action',
    panelCount: '{{count}} panel(s)',
    imported: 'Imported',
    import: 'Import',
    importing: 'Importing…',
    openImported: 'Open the sequence',
    close: 'Close',
    fromBoard: 'From board {{title}}',
    sendFilm: 'Send to the board',
    sendFilmHint: 'Writes the assembled film back to the board as a panel result.',
    needsAssembly: 'Assemble the sequence first.',
    notCurrent: 'The shots changed since this assembly: the board gets the assembled film as it is.',
    sendShot: 'Send shot to its panel',
    sending: 'Sending…',
    sent: 'Sent to the board (panel {{panel}}).',
    replayed: 'Already on the board (panel {{panel}}): nothing new was written.',
    sendFailed: 'Not sent: {{message}}',
  },
};
