/**
 * A Library card can be scanned: it says how long the result is, which model and mode made it,
 * when it finished and whether its bytes were verified, and it offers a clear "Select to compare"
 * toggle. Its picture is the poster until the pointer moves across a video.
 */
import { describe, expect, it, vi } from 'vitest';
import type { JobView, OutputView } from '../../../src/shared/bridge/contract.js';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));
import { renderMarkup, rendererModule } from './static-render.js';
const { LibraryCard, frameAt, markOfKey } = await rendererModule<{
  LibraryCard: unknown;
  frameAt(fraction: number, count: number): number;
  markOfKey(event: { key: string; ctrlKey: boolean; metaKey: boolean; altKey: boolean }): unknown;
}>('screens/library/LibraryCard.js');

const COMPLETED = Date.UTC(2026, 0, 15, 12, 0, 0);

function output(extra: Partial<OutputView> = {}): OutputView {
  return {
    id: 7,
    position: 0,
    state: 'verified',
    kind: 'video',
    mimeType: 'video/mp4',
    byteSize: 10,
    sha256: 'a'.repeat(64),
    verified: true,
    verification: 'verified',
    mediaUrl: '/media/library/1/7?s=x',
    posterUrl: '/media/library/1/7/poster?s=p',
    frameUrls: [0, 1, 2, 3, 4, 5].map((n) => `/media/library/1/7/frame/${n}?s=f${n}`),
    ...extra,
  };
}

function job(extra: Partial<JobView> = {}): JobView {
  return {
    rowId: 1,
    variation: null,
    marks: { flag: null, stars: 0, label: null },
    profileId: 'sim',
    model: 'h3-video',
    serviceKind: 'video_generation',
    jobId: 'job_1',
    requestId: 'req_1',
    status: 'succeeded',
    stage: 'succeeded',
    stageMessage: null,
    elapsedSeconds: 30,
    queuedSeconds: 1,
    runningSeconds: 29,
    nextPollAt: null,
    errorCode: null,
    errorMessage: null,
    retryable: null,
    acceptedAt: COMPLETED - 60_000,
    completedAt: COMPLETED,
    updatedAt: COMPLETED,
    prompt: 'A kite over the dunes',
    title: 'A kite over the dunes',
    generationMode: 't2v',
    seconds: 10,
    draftId: null,
    outputs: [output()],
    stageStartedAt: null,
    expectedTotalSeconds: null,
    expectedRemainingSeconds: null,
    estimateBasis: null,
    ...extra,
  };
}

const render = (view: JobView, selected = false) =>
  renderMarkup(LibraryCard, {
    job: view,
    selected,
    onOpen: () => {},
    onToggleCompare: () => {},
    onMark: () => {},
  });

/** The text of the element carrying a data-testid (tags inside it dropped), or null when absent. */
function text(html: string, testId: string): string | null {
  const match = new RegExp(`<(\\w+)[^>]*data-testid="${testId}"[^>]*>(.*?)</\\1>`).exec(html);
  return match ? match[2]!.replace(/<[^>]+>/g, '').trim() : null;
}

/** The attributes of the element carrying a data-testid. */
function attrs(html: string, testId: string): Record<string, string> {
  const tag = new RegExp(`<\\w+[^>]*data-testid="${testId}"[^>]*>`).exec(html)?.[0] ?? '';
  return Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

describe('a Library card', () => {
  it('of a verified video: its length, model, translated mode, finishing date and verified state', () => {
    const html = render(job());
    expect(text(html, 'card-duration')).toBe('10s');
    expect(text(html, 'card-model')).toBe('h3-video');
    expect(text(html, 'card-mode')).toBe('Text to video');
    expect(attrs(html, 'card-date').dateTime).toBe('2026-01-15T12:00:00.000Z');
    expect(text(html, 'card-date')).toContain('Jan 15, 2026');
    expect(text(html, 'card-verified')).toBe('✓ Verified');
    expect(text(html, 'card-not-verifiable')).toBeNull();
    // each fact is labelled for a screen reader
    for (const label of ['Duration', 'Model', 'Mode', 'Date', 'Verification'])
      expect(html).toContain(`<dt class="sr-only">${label}</dt>`);
  });

  it('a longer request reads in minutes; the date is when it finished, not when it was accepted', () => {
    const html = render(job({ seconds: 75, acceptedAt: COMPLETED - 3 * 86_400_000 }));
    expect(text(html, 'card-duration')).toBe('1m 15s');
    expect(text(html, 'card-date')).toContain('Jan 15, 2026');
  });

  it('of an image that could not be verified: no length, its kind as the mode, and "Not verifiable"', () => {
    const image = output({
      kind: 'image',
      mimeType: 'image/png',
      verification: 'not_verifiable',
      frameUrls: [],
    });
    const html = render(
      job({
        serviceKind: 'image_generation',
        model: 'h3-image',
        generationMode: null,
        seconds: null,
        outputs: [image],
      }),
    );
    expect(text(html, 'card-duration')).toBeNull();
    expect(text(html, 'card-model')).toBe('h3-image');
    expect(text(html, 'card-mode')).toBe('Image');
    expect(text(html, 'card-not-verifiable')).toBe('Not verifiable');
    expect(text(html, 'card-verified')).toBeNull();
  });

  it('shows the poster, not a frame, until the pointer moves across it (frames are fetched lazily)', () => {
    const html = render(job());
    expect(attrs(html, 'library-preview').src).toBe('/media/library/1/7/poster?s=p');
    expect(html).not.toContain('/frame/');
  });

  it('offers a "Select to compare" toggle button whose pressed state is the selection', () => {
    const off = attrs(render(job()), 'library-select');
    expect(off['aria-pressed']).toBe('false');
    expect(off.type).toBe('button');
    expect(text(render(job()), 'library-select')).toBe('+ Select to compare');
    expect(attrs(render(job(), true), 'library-select')['aria-pressed']).toBe('true');
  });
});

describe('the frame under the pointer', () => {
  it('splits the card into one equal part per frame, clamped at both edges', () => {
    expect(frameAt(0, 6)).toBe(0);
    expect(frameAt(0.16, 6)).toBe(0);
    expect(frameAt(0.17, 6)).toBe(1);
    expect(frameAt(0.5, 6)).toBe(3);
    expect(frameAt(0.999, 6)).toBe(5);
    expect(frameAt(1, 6)).toBe(5);
    expect(frameAt(-0.2, 6)).toBe(0);
    expect(frameAt(1.4, 6)).toBe(5);
    expect(frameAt(0.5, 0)).toBe(0);
  });

  it('shows its marks: pick or reject pressed, its stars, each a labelled toggle (issue 41)', () => {
    const html = render(job({ marks: { flag: 'pick', stars: 3, label: null } }));
    expect(attrs(html, 'library-card')).toMatchObject({ 'data-flag': 'pick', 'data-stars': '3' });
    expect(attrs(html, 'library-mark-pick')).toMatchObject({
      'aria-pressed': 'true',
      'aria-keyshortcuts': 'P',
    });
    expect(attrs(html, 'library-mark-reject')['aria-pressed']).toBe('false');
    expect(html).toContain('aria-label="3 stars" aria-keyshortcuts="3"');
    expect((html.match(/aria-pressed="true"/g) ?? []).length).toBe(1 + 3);
    expect((html.match(/>★</g) ?? []).length).toBe(3);
    expect((html.match(/>☆</g) ?? []).length).toBe(2);
  });

  it('marks by single keys: P pick, X reject, U unflag, 0–5 stars; not with a modifier, not 6', () => {
    const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) =>
      markOfKey({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods });
    expect(key('p')).toEqual({ flag: 'pick' });
    expect(key('P')).toEqual({ flag: 'pick' });
    expect(key('x')).toEqual({ flag: 'reject' });
    expect(key('u')).toEqual({ flag: null });
    expect(key('0')).toEqual({ stars: 0 });
    expect(key('5')).toEqual({ stars: 5 });
    expect(key('6')).toBeNull();
    expect(key('p', { ctrlKey: true })).toBeNull();
    expect(key('x', { metaKey: true })).toBeNull();
    expect(key('Enter')).toBeNull();
  });
});
