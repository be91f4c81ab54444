import { Progress } from 'radix-ui';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobView } from '../../../../shared/bridge/contract';
import { isTerminalJobStatus } from '../../../../shared/bridge/names';
import { formatDuration } from '../../../../shared/format-duration';
import { EmptyState } from '../../components/EmptyState';
import { progressIndicator } from '../../components/progress-indicator';
import { useStudio } from '../../store';
import '../../theme/studio.css';
import { queueEntries, type QueueEntry } from './queue-entries';
import { jobMetaLine, jobProgress } from './job-row-model';

const ROW_HEIGHT = 132;

function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/**
 * The expected remaining time of a job in progress, from this profile's history (the core's
 * median of its succeeded jobs with the same model and seconds); the tooltip says how.
 */
export function EtaText({ job, now }: { job: JobView; now: number }) {
  const { t } = useTranslation();
  if (isTerminalJobStatus(job.status) || job.expectedTotalSeconds === null || !job.estimateBasis) return null;
  const left = Math.max(0, job.expectedTotalSeconds - Math.max(0, now - job.acceptedAt) / 1000);
  return (
    <span
      data-testid="queue-eta"
      data-samples={job.estimateBasis.samples}
      title={t('studio.queue.etaHint', {
        count: job.estimateBasis.samples,
        model: job.estimateBasis.model,
        seconds: job.estimateBasis.seconds ?? '—',
      })}
    >
      {left >= 1 ? t('studio.queue.eta', { time: formatDuration(left) }) : t('studio.queue.etaSoon')}
    </span>
  );
}

export function JobRow({ job, now }: { job: JobView; now: number }) {
  const { t } = useTranslation();
  const downloads = useStudio((s) => s.downloads);
  const copyToCreate = useStudio((s) => s.copyToCreate);
  const setSection = useStudio((s) => s.setSection);
  const profiles = useStudio((s) => s.profiles);
  const profile = profiles.find((p) => p.id === job.profileId)?.name ?? job.profileId;
  const terminal = isTerminalJobStatus(job.status);
  const output = job.outputs[0];
  const { value, complete } = jobProgress(job, downloads);
  const indicator = progressIndicator(value);
  const nextPoll = job.nextPollAt ? Math.max(0, Math.round((job.nextPollAt - now) / 1000)) : null;
  const round = (s: number | null) => (s === null ? null : Math.round(s));
  return (
    <div
      className={`job-row job-${job.status}`}
      data-testid="job-row"
      data-status={job.status}
      data-row-id={job.rowId}
    >
      <div className="job-head">
        <span className={`badge status-${job.status}`} data-testid="job-status">
          {t(`studio.queue.status.${job.status}`)}
        </span>
        <strong className="job-prompt" title={job.title || undefined} data-testid="job-title">
          {job.title ||
            t('studio.queue.untitled', {
              kind: t(`studio.queue.kind.${job.serviceKind}`, { defaultValue: job.serviceKind }),
            })}
        </strong>
        <span className="muted small" data-testid="job-meta">
          {jobMetaLine([
            job.model,
            job.generationMode
              ? t(`modeName.${job.generationMode}`, { defaultValue: job.generationMode })
              : null,
            profile,
          ])}
        </span>
      </div>
      <div className="job-meta muted small">
        {job.stage ? (
          <span data-testid="job-stage">
            {t('studio.queue.stage')}: {job.stage}
            {job.stageMessage ? ` — ${job.stageMessage}` : ''}
          </span>
        ) : null}
        {job.elapsedSeconds !== null ? (
          <span>{t('studio.queue.elapsed', { s: round(job.elapsedSeconds) })}</span>
        ) : null}
        {job.queuedSeconds !== null ? (
          <span>{t('studio.queue.queuedFor', { s: round(job.queuedSeconds) })}</span>
        ) : null}
        {job.runningSeconds !== null ? (
          <span>{t('studio.queue.runningFor', { s: round(job.runningSeconds) })}</span>
        ) : null}
        {!terminal && nextPoll !== null ? <span>{t('studio.queue.nextPoll', { s: nextPoll })}</span> : null}
        {!terminal && job.stageStartedAt !== null ? (
          <span data-testid="queue-stage-elapsed">
            {t('studio.queue.stageElapsed', { time: formatDuration((now - job.stageStartedAt) / 1000) })}
          </span>
        ) : null}
        <EtaText job={job} now={now} />
      </div>
      {job.status !== 'failed' && job.status !== 'canceled' ? (
        <Progress.Root className="progress" value={value} aria-label={t('studio.queue.download')}>
          <Progress.Indicator
            className={`${indicator.className}${complete ? ' progress-complete' : ''}`}
            data-testid="job-progress"
            style={indicator.style}
          />
        </Progress.Root>
      ) : null}
      {output?.verified ? (
        <span className="ok-text small" data-testid="job-verified">
          {output.verification === 'not_verifiable' ? (
            <span title={t('studio.library.notVerifiableHint')} data-testid="job-not-verifiable">
              {t('studio.queue.notVerifiable')}
            </span>
          ) : (
            <>✓ {t('studio.queue.verified')}</>
          )}{' '}
          <button type="button" className="link-button" onClick={() => setSection('library')}>
            {t('studio.queue.openLibrary')}
          </button>
        </span>
      ) : null}
      {job.status === 'failed' ? (
        <div className="job-failure" role="group" data-testid="job-failure">
          <p className="error-text">{job.errorMessage}</p>
          <p className="muted small">
            {job.errorCode ? `${t('studio.queue.errorCode')}: ${job.errorCode} · ` : ''}
            {t('studio.queue.requestId')}: <code>{job.requestId}</code>
          </p>
          <p className="small" data-testid="job-advice">
            {job.retryable ? t('studio.queue.adviceRetryable') : t('studio.queue.adviceFinal')}
          </p>
          {job.retryable ? (
            <button
              type="button"
              className="button button-small"
              data-testid="job-retry"
              onClick={() => void copyToCreate(job.rowId)}
            >
              {t('studio.queue.retry')}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

/** The jobs of one "Generate ×N" under one header: "Variations of <prompt> ×N". */
function VariationGroup({ entry, now }: { entry: Extract<QueueEntry, { kind: 'group' }>; now: number }) {
  const { t } = useTranslation();
  const headingId = `variations-${entry.groupId}`;
  return (
    <section
      className="variation-group"
      data-testid="variation-group"
      data-group-id={entry.groupId}
      aria-labelledby={headingId}
    >
      <h2 id={headingId} className="variation-group-title" data-testid="variation-group-title">
        {t('studio.queue.variationsOf', { prompt: entry.prompt, count: entry.count })}
      </h2>
      {entry.jobs.map((job) => (
        <div key={job.rowId} className="variation-member" data-variation-index={job.variation!.index}>
          <span className="muted small">
            {t('studio.queue.variationIndex', { index: job.variation!.index + 1, count: entry.count })}
          </span>
          <JobRow job={job} now={now} />
        </div>
      ))}
    </section>
  );
}

/** Every job of every profile, live, virtualized; the jobs of a "Generate ×N" grouped. */
export function QueueScreen() {
  const { t } = useTranslation();
  const jobs = useStudio((s) => s.jobs);
  const order = useStudio((s) => s.jobOrder);
  const loaded = useStudio((s) => s.jobsLoaded);
  const cursor = useStudio((s) => s.jobsCursor);
  const loadJobs = useStudio((s) => s.loadJobs);
  const parent = useRef<HTMLDivElement>(null);
  const now = useNow(1000);
  const entries = useMemo(() => queueEntries(order, jobs), [order, jobs]);

  useEffect(() => {
    void loadJobs();
  }, [loadJobs]);

  // eslint-disable-next-line react-hooks/incompatible-library -- the list re-renders on every store change anyway
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => parent.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 6,
  });
  const items = virtualizer.getVirtualItems();
  const last = items[items.length - 1];
  useEffect(() => {
    if (last && last.index >= entries.length - 20 && cursor) void loadJobs(true);
  }, [last, entries.length, cursor, loadJobs]);

  return (
    <section className="screen queue-screen" aria-labelledby="queue-title">
      <h1 id="queue-title">{t('queue.title')}</h1>
      {loaded && order.length === 0 ? (
        <EmptyState title={t('queue.emptyTitle')} body={t('queue.emptyBody')} />
      ) : (
        <>
          <p className="muted small" data-testid="queue-count">
            {t('studio.queue.count', { count: order.length })}
          </p>
          <div ref={parent} className="queue-scroll" data-testid="queue-list">
            <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
              {items.map((item) => {
                const entry = entries[item.index];
                return entry ? (
                  <div
                    key={item.key}
                    data-index={item.index}
                    ref={virtualizer.measureElement}
                    style={{
                      position: 'absolute',
                      top: 0,
                      left: 0,
                      right: 0,
                      transform: `translateY(${item.start}px)`,
                    }}
                  >
                    {entry.kind === 'group' ? (
                      <VariationGroup entry={entry} now={now} />
                    ) : (
                      <JobRow job={entry.job} now={now} />
                    )}
                  </div>
                ) : null;
              })}
            </div>
          </div>
        </>
      )}
    </section>
  );
}
