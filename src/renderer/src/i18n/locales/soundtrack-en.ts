/**
 * English strings of a sequence's sound track and captions (issue 31), merged into the catalogue
 * when the lazy Sequences chunk loads (screens/sequences/soundtrack-i18n.ts), so they cost the first
 * chunk nothing. Mirrored in soundtrack-zh-CN.ts.
 */
export const soundtrackEn = {
  soundtrack: {
    title: 'Sound track',
    intro:
      "Besides each shot's own sound: a music bed, voice-over lines at their times, and captions from the lines. Deliveries mix and loudness-normalize them.",
    loading: 'Loading the sound track…',
    music: 'Music bed',
    noMusic: 'No music yet.',
    fromLibrary: 'From the library',
    chooseLibrary: 'Choose a sound of the library',
    noLibrarySounds: 'The library has no verified sounds yet.',
    useLibrary: 'Use this sound',
    generatePrompt: 'Describe the music to generate',
    generateMusic: 'Generate music',
    removeMusic: 'Remove the music',
    musicGain: 'Music gain (dB)',
    duck: 'Music ducks under a voice by (dB)',
    saveLevels: 'Save levels',
    voices: 'Voice-over lines',
    noVoices: 'No voice lines yet.',
    lineText: 'Words to speak',
    lineAt: 'Starts at (s)',
    lineGain: 'Gain (dB)',
    speak: 'Speak this line',
    dropVoice: 'Or drop an audio file here',
    placeFile: 'Place the file',
    fileChosen: '{{name}} is ready to place.',
    notAudio: '{{name}} is not an audio file.',
    removeLine: 'Remove the line at {{seconds}}',
    moveLine: 'Start of the line at {{seconds}}',
    gainOfLine: 'Gain of the line at {{seconds}}',
    state_ready: 'ready',
    state_generating: 'generating…',
    state_failed: 'failed',
    untranscribed: 'Not transcribed yet: its captions wait.',
    transcribe: 'Transcribe',
    captions: 'Captions',
    cueCount: '{{count}} caption cue(s)',
    exportCaptions: 'Export SRT and WebVTT',
    exported: 'Written beside the film (its newest delivery, else the assembly): {{srt}} and {{vtt}}.',
    exportedText: 'Nothing is assembled yet: the caption text is below.',
    working: 'Working…',
  },
};
