/**
 * A Queue row of a job in progress shows how long its stage has run and, once this profile has
 * history for the same model and seconds, the expected remaining time with how it is estimated.
 */
import { describe, expect, it, vi } from 'vitest';
import type { JobView } from '../../../src/shared/bridge/contract.js';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));
import { renderMarkup, rendererModule } from './static-render.js';
const { JobRow } = await rendererModule<{ JobRow: unknown }>('screens/queue/QueueScreen.js');

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

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
    status: 'running',
    stage: 'generating',
    stageMessage: null,
    elapsedSeconds: null,
    queuedSeconds: null,
    runningSeconds: null,
    nextPollAt: null,
    errorCode: null,
    errorMessage: null,
    retryable: null,
    acceptedAt: NOW - 50_000,
    completedAt: null,
    updatedAt: NOW,
    prompt: 'A kite over the dunes',
    title: 'A kite over the dunes',
    generationMode: 't2v',
    seconds: 5,
    draftId: null,
    outputs: [],
    stageStartedAt: NOW - 75_000,
    expectedTotalSeconds: null,
    expectedRemainingSeconds: null,
    estimateBasis: null,
    ...extra,
  };
}

/** The text and attributes of one data-testid in the row's markup, or null when absent. */
function part(html: string, testId: string): { text: string; title: string | null } | null {
  const match = new RegExp(`<span data-testid="${testId}"([^>]*)>([^<]*)</span>`).exec(html);
  if (!match) return null;
  const title = /title="([^"]*)"/.exec(match[1]!)?.[1] ?? null;
  return { text: match[2]!, title: title?.replaceAll('&#x27;', "'").replaceAll('&amp;', '&') ?? null };
}

const render = (view: JobView, now = NOW) => renderMarkup(JobRow, { job: view, now });

describe('a Queue row in progress', () => {
  it('shows the elapsed time of the current stage; no estimate without history', () => {
    const html = render(job());
    expect(part(html, 'queue-stage-elapsed')?.text).toBe('in this stage for 1m 15s');
    expect(part(html, 'queue-eta')).toBeNull();
  });

  it('with history: the expected remaining time, counting down, and a tooltip that says how it is estimated', () => {
    const estimated = job({
      expectedTotalSeconds: 90,
      expectedRemainingSeconds: 40,
      estimateBasis: { samples: 3, model: 'h3-video', seconds: 5 },
    });
    const eta = part(render(estimated), 'queue-eta');
    expect(eta?.text).toBe('about 40s left'); // 90 s median − 50 s since acceptance
    expect(eta?.title).toBe(
      'Estimated from this profile’s history: the median time from acceptance to completion of its 3 succeeded h3-video job(s) of 5 s, minus the time this job has run so far.',
    );
    expect(part(render(estimated, NOW + 30_000), 'queue-eta')?.text).toBe('about 10s left');
    expect(part(render(estimated, NOW + 45_000), 'queue-eta')?.text).toBe('any moment now');
  });

  it('a finished job shows neither', () => {
    const html = render(
      job({
        status: 'succeeded',
        expectedTotalSeconds: 90,
        estimateBasis: { samples: 3, model: 'h3-video', seconds: 5 },
      }),
    );
    expect(part(html, 'queue-stage-elapsed')).toBeNull();
    expect(part(html, 'queue-eta')).toBeNull();
  });
});

/** The value a row's bar shows (its indicator's data-value), or undefined when indeterminate. */
function barValue(html: string): string | undefined {
  const tag = /<div[^>]*data-testid="job-progress"[^>]*>/.exec(html)?.[0] ?? '';
  return /data-value="(\d+)"/.exec(tag)?.[1];
}

describe('what a Queue row says a job is', () => {
  const verifiedOutput = {
    id: 7,
    position: 0,
    state: 'verified' as const,
    kind: 'video',
    mimeType: 'video/mp4',
    byteSize: 10,
    sha256: 'a'.repeat(64),
    verified: true,
    verification: 'verified' as const,
    mediaUrl: null,
    posterUrl: null,
    frameUrls: [],
  };

  it('a running job whose progress is unknown shows the sweeping indeterminate bar, not a bar stuck part-way', () => {
    const html = render(job({ status: 'running' }));
    const tag = /<div[^>]*data-testid="job-progress"[^>]*>/.exec(html)?.[0] ?? '';
    expect(tag).toContain('data-state="indeterminate"');
    expect(tag).toContain('progress-indeterminate');
    expect(tag).not.toContain('translateX');
    expect(barValue(html)).toBeUndefined();
  });

  it('a succeeded, verified job has a full bar drawn at once', () => {
    const html = render(job({ status: 'succeeded', outputs: [verifiedOutput] }));
    expect(barValue(html)).toBe('100');
    expect(html).toContain('progress-complete');
    expect(html).toContain('data-testid="job-verified"');
  });

  it('a succeeded job with two outputs, both stored, is full; one still downloading shows its fraction', () => {
    const second = { ...verifiedOutput, id: 8, position: 1 };
    expect(barValue(render(job({ status: 'succeeded', outputs: [verifiedOutput, second] })))).toBe('100');
    const pending = { ...verifiedOutput, state: 'downloading' as const, verified: false, verification: null };
    const html = render(job({ status: 'succeeded', outputs: [pending, second] }));
    expect(html).not.toContain('progress-complete');
  });

  it('a speech job is titled by its text, never its raw id, and its line has no stray separator', () => {
    const speech = job({
      serviceKind: 'audio_generation',
      model: 'cadence-speech',
      prompt: '',
      title: 'Welcome to the harbour',
      generationMode: null,
      jobId: 'job_c0ff84b8aa',
    });
    const html = render(speech);
    expect(html).toMatch(/data-testid="job-title"[^>]*>Welcome to the harbour</);
    expect(html).not.toContain('job_c0ff84b8aa</strong>');
    const meta = /data-testid="job-meta">([^<]*)</.exec(html)?.[1];
    expect(meta).toBe('cadence-speech · sim');
    expect(meta).not.toMatch(/·\s*·|^\s*·|·\s*$/);
  });

  it('a job whose request names nothing is titled by its kind', () => {
    const html = render(job({ serviceKind: 'audio_generation', prompt: '', title: '', jobId: 'job_zz' }));
    expect(html).toMatch(/data-testid="job-title"[^>]*>Audio</);
  });
});
