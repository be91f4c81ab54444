import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SequenceView, SoundtrackView } from '../../../src/shared/bridge/contract.js';
import { openStudioCore, type StudioCore } from '../../support/studio-core.js';

/**
 * Caption edits (issue 40) over a real core and its embedded simulator: a spoken line's caption
 * shortened by hand (what dragging its edge on the timeline sends), kept from the line's start so
 * it moves with the line, used by the exported sidecars and the delivery's captions, given back
 * its own times on demand, dropped when the line is re-worded; bad times refused with a clear
 * sentence and nothing changed.
 */

let studio: StudioCore;

beforeAll(async () => {
  studio = await openStudioCore('fw-caption-edits-');
});

afterAll(async () => {
  await studio?.close();
});

describe('caption edits', () => {
  it('shortens a cue, moves it with its line, exports it, clears it and refuses bad times', async () => {
    const { sequenceId } = await studio.call<SequenceView>('sequences.create', { name: 'Captions' });
    const lineId = randomUUID();
    let view = await studio.call<SoundtrackView>('sequences.soundtrack.addVoice', {
      sequenceId,
      lineId,
      atSeconds: 2,
      text: 'The boats come home before the fog.',
    });
    expect(view.voices[0]!.state).toBe('ready');
    const made = view.captions[0]!;
    expect(made).toMatchObject({ lineId, cueIndex: 0, startSeconds: 2 });
    expect(made.endSeconds).toBeGreaterThan(2.5);

    // its end dragged half a second earlier
    const shorter = { startSeconds: 2, endSeconds: made.endSeconds - 0.5 };
    view = await studio.call('sequences.captions.update', {
      sequenceId,
      lineId,
      cueIndex: 0,
      range: shorter,
    });
    expect(view.captions[0]).toMatchObject({ ...shorter, endSeconds: expect.closeTo(shorter.endSeconds, 3) });
    let exported = await studio.call<{ srt: string }>('sequences.captions.export', { sequenceId });
    const time = (s: number) => new Date(Math.round(s * 1000)).toISOString().slice(11, 23).replace('.', ',');
    expect(exported.srt).toContain(`${time(2)} --> ${time(shorter.endSeconds)}`);

    // the line moved by a second: its caption goes along, still shortened
    view = await studio.call('sequences.soundtrack.updateVoice', { sequenceId, lineId, atSeconds: 3 });
    expect(view.captions[0]!.startSeconds).toBeCloseTo(3, 3);
    expect(view.captions[0]!.endSeconds).toBeCloseTo(shorter.endSeconds + 1, 3);

    // bad times: a clear sentence, and nothing changes
    for (const range of [
      { startSeconds: 4, endSeconds: 4.1 },
      { startSeconds: 5, endSeconds: 4 },
    ])
      await expect(
        studio.call('sequences.captions.update', { sequenceId, lineId, cueIndex: 0, range }),
      ).rejects.toThrow(/at least 0.2 s/);
    await expect(
      studio.call('sequences.captions.update', { sequenceId, lineId, cueIndex: 3, range: shorter }),
    ).rejects.toThrow(/no caption 4/);
    expect((await studio.call<SoundtrackView>('sequences.soundtrack.get', { sequenceId })).captions).toEqual(
      view.captions,
    );

    // back to the line's own times
    view = await studio.call('sequences.captions.update', { sequenceId, lineId, cueIndex: 0, range: null });
    expect(view.captions[0]!.endSeconds).toBeCloseTo(made.endSeconds + 1, 3);

    // an edit is dropped when the line is re-worded (its cues are made again)
    await studio.call('sequences.captions.update', { sequenceId, lineId, cueIndex: 0, range: shorter });
    view = await studio.call('sequences.soundtrack.updateVoice', {
      sequenceId,
      lineId,
      text: 'Fog rolls in.',
    });
    exported = await studio.call('sequences.captions.export', { sequenceId });
    expect(view.captions.map((c) => c.text)).toEqual(['Fog rolls in.']);
    expect(view.captions[0]!.startSeconds).toBe(3);
    expect(view.captions[0]!.endSeconds).not.toBeCloseTo(shorter.endSeconds + 1, 2);
  });
});
