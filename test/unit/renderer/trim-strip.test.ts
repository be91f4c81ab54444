/**
 * The trim strip and the card's Trim button, rendered: a generated shot offers Trim (a draft does
 * not), a trimmed shot shows its kept range on the card, and the strip opens on the shot's trim with
 * labelled handles and playhead, its frames as thumbnails and the kept duration.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { shot } from './sequence-fixtures.js';
import { renderMarkup, rendererModule } from './static-render.js';

const shown = vi.hoisted(() => ({ state: {} as Record<string, unknown> }));
vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));
vi.mock('../../../src/renderer/src/store', () => {
  const useStudio = (selector: (s: Record<string, unknown>) => unknown) => selector(shown.state);
  return { useStudio };
});

const { TrimStrip, TrimButton } = await rendererModule<{ TrimStrip: unknown; TrimButton: unknown }>(
  'screens/sequences/TrimStrip.js',
);

const generated = shot({
  state: 'succeeded',
  sha256: 'a'.repeat(64),
  mediaUrl: '/media/library/1/1?s=x',
  durationSeconds: 5,
  frameRate: 24,
  frameCount: 120,
  frameUrls: ['/media/library/1/1/frame/0?s=a', '/media/library/1/1/frame/1?s=b'],
});
const trimmed = {
  ...generated,
  trim: { inSeconds: 0.5, outSeconds: 3, inFrame: 12, outFrame: 72, seconds: 2.5 },
};

beforeEach(() => {
  shown.state = { sequenceBusy: [], trimShot: () => Promise.resolve(true) };
});

describe('the trim strip', () => {
  it('offers Trim once the shot has its result, and names a trimmed shot’s kept range', () => {
    const draft = renderMarkup(TrimButton, {
      shot: shot(),
      index: 0,
      open: false,
      ready: false,
      onToggle() {},
    });
    expect(draft).toMatch(/data-testid="sequence-shot-trim-0"[^>]*disabled/);
    const ready = renderMarkup(TrimButton, {
      shot: generated,
      index: 0,
      open: false,
      ready: true,
      onToggle() {},
    });
    expect(ready).not.toMatch(/disabled/);
    expect(ready).not.toContain('Trimmed');
    const badge = renderMarkup(TrimButton, {
      shot: trimmed,
      index: 0,
      open: false,
      ready: true,
      onToggle() {},
    });
    expect(badge).toContain('Trimmed 0.5–3 s');
  });

  it('opens on the shot’s trim, with labelled handles, a playhead, its frames and the kept duration', () => {
    const html = renderMarkup(TrimStrip, { shot: trimmed, index: 1, onDone() {} });
    expect(html).toContain('aria-label="Trim Shot 1"');
    expect(html).toMatch(
      /role="slider"[^>]*aria-label="In point"[^>]*aria-valuemin="0"[^>]*aria-valuemax="120"[^>]*aria-valuenow="12"[^>]*aria-valuetext="0.5 s, frame 12"/,
    );
    expect(html).toMatch(/aria-label="Out point"[^>]*aria-valuenow="72"/);
    expect(html).toMatch(/<label[^>]*for="trim-playhead-shot-1"[^>]*>Playhead<\/label>/);
    expect(html).toContain('src="/media/library/1/1/frame/0?s=a"');
    expect(html).toContain('Kept 2.5 s of 5 s (60 frames)');
    expect(html).toContain('Use the whole shot');
    // an untrimmed shot opens on its whole result, with nothing to clear
    const whole = renderMarkup(TrimStrip, { shot: generated, index: 1, onDone() {} });
    expect(whole).toContain('Kept 5 s of 5 s (120 frames)');
    expect(whole).not.toContain('Use the whole shot');
  });
});
