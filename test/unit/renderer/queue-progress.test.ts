/**
 * A Queue row of a job in progress shows how long its stage has run and, once this profile has
 * history for the same model and seconds, the expected remaining time with how it is estimated.
 */
import { describe, expect, it, vi } from 'vitest';
import type { JobView } from '../../../src/shared/bridge/contract.js';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));
// the renderer's modules are the web project's (JSX, DOM): imported by name, typed here
const i18nModule = '../../../src/renderer/src/i18n/index.js';
const queueModule = '../../../src/renderer/src/screens/queue/QueueScreen.js';
// React's types declare DOM interfaces of their own: kept out of the node project's typecheck
const reactModule = 'react';
const serverModule = 'react-dom/server';
type Element = { readonly element: unique symbol };
const { createElement } = (await import(reactModule)) as {
  createElement(type: unknown, props: Record<string, unknown>): Element;
};
const { renderToStaticMarkup } = (await import(serverModule)) as {
  renderToStaticMarkup(element: Element): string;
};
await import(i18nModule);
const { JobRow } = (await import(queueModule)) as { JobRow: unknown };

const NOW = Date.UTC(2026, 0, 1, 12, 0, 0);

function job(extra: Partial<JobView> = {}): JobView {
  return {
    rowId: 1,
    variation: null,
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
    generationMode: 't2v',
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

const render = (view: JobView, now = NOW) => renderToStaticMarkup(createElement(JobRow, { job: view, now }));

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
