/**
 * The sound track panel of a sequence, rendered: the music bed with its state and a player once
 * ready, the voice lines by time with each field labelled for a screen reader, the new line's
 * fields, and the captions with their times. The panel's parts take the state the hook answers.
 */
import { describe, expect, it, vi } from 'vitest';
import type { SoundtrackView } from '../../../src/shared/bridge/contract.js';
import { renderMarkup, rendererModule } from './static-render.js';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));

await rendererModule('screens/sequences/soundtrack-i18n.js');
const { MusicBed } = await rendererModule<{ MusicBed: unknown }>('screens/sequences/MusicBed.js');
const { VoiceLines } = await rendererModule<{ VoiceLines: unknown }>('screens/sequences/VoiceLines.js');
const { SoundtrackPanel } = await rendererModule<{ SoundtrackPanel: unknown }>(
  'screens/sequences/SoundtrackPanel.js',
);

const view: SoundtrackView = {
  sequenceId: 's1',
  music: {
    source: 'generated',
    jobRowId: 4,
    prompt: 'Slow harbour strings',
    state: 'ready',
    mediaUrl: '/media/library/4/9?sig=x',
    fileName: 'music.wav',
    durationSeconds: 20,
    errorMessage: null,
  },
  musicGainDb: -12,
  duckDb: 12,
  voices: [
    {
      lineId: 'a',
      source: 'generated',
      text: 'The boats come home.',
      atSeconds: 2,
      gainDb: -2,
      state: 'ready',
      mediaUrl: '/media/library/5/10?sig=y',
      fileName: 'speech.wav',
      durationSeconds: 1.5,
      errorMessage: null,
      transcribed: true,
    },
    {
      lineId: 'b',
      source: 'file',
      text: '',
      atSeconds: 9,
      gainDb: 0,
      state: 'ready',
      mediaUrl: null,
      fileName: 'line.wav',
      durationSeconds: 4,
      errorMessage: null,
      transcribed: false,
    },
  ],
  captions: [{ startSeconds: 2, endSeconds: 3.5, text: 'The boats come home.' }],
};
const state = { view, error: null, busy: null, actions: {} };

describe('the sound track panel', () => {
  it('shows the music bed, ready, with a player and its levels', () => {
    const html = renderMarkup(MusicBed, { state });
    expect(html).toContain(
      'data-testid="soundtrack-music-current" data-state="ready" data-source="generated"',
    );
    expect(html).toContain('Slow harbour strings');
    expect(html).toMatch(/<audio src="\/media\/library\/4\/9\?sig=x"[^>]*aria-label="Music bed"/);
    expect(html).toMatch(/<label[^>]*for="soundtrack-music-gain"[^>]*>Music gain \(dB\)<\/label>/);
    expect(html).toMatch(/id="soundtrack-duck"[^>]*value="12"/);
  });

  it('lists the voice lines by time with labelled fields, and offers to transcribe a file line', () => {
    const html = renderMarkup(VoiceLines, { state });
    expect(html).toContain('data-testid="soundtrack-voice-0" data-state="ready" data-at="2"');
    expect(html).toContain('aria-label="Start of the line at 2 s"');
    expect(html).toContain('aria-label="Gain of the line at 9 s"');
    expect(html).toContain('aria-label="Remove the line at 2 s"');
    expect(html).toContain('Not transcribed yet');
    expect(html).toMatch(/<label[^>]*for="soundtrack-line-text"[^>]*>Words to speak<\/label>/);
    expect(html).toContain('Or drop an audio file here');
  });

  it('says it is loading before the core answers', () => {
    const html = renderMarkup(SoundtrackPanel, { sequenceId: 's1' });
    expect(html).toContain('aria-labelledby="soundtrack-title"');
    expect(html).toContain('Loading the sound track');
  });
});
