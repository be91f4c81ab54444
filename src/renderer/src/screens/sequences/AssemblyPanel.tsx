import { Progress } from 'radix-ui';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../create/form-model';
import { useStudio } from '../../store';
import { CROSSFADE_CHOICES, formatSeconds } from './sequence-model';

/** Assemble: the cross-fade, the progress, then the assembled file with its chapters and sha256. */
export function AssemblyPanel() {
  const { t } = useTranslation();
  const sequence = useStudio((s) => s.sequence);
  const assembleSequence = useStudio((s) => s.assembleSequence);
  const busy = useStudio((s) => s.sequenceBusy.includes('assemble'));
  // kept in the store: the strip above counts the same cross-fade in the film's length
  const crossfade = useStudio((s) => s.sequenceCrossfade);
  const setCrossfade = useStudio((s) => s.setSequenceCrossfade);
  if (!sequence) return null;
  const assembly = sequence.assembly;
  const assembling = assembly?.state === 'assembling';
  const percent = assembly ? Math.round(Math.min(1, Math.max(0, assembly.progress)) * 100) : 0;

  return (
    <section className="panel assembly" aria-labelledby="assembly-title">
      <h3 id="assembly-title">{t('studio.sequences.assembleTitle')}</h3>
      <div className="row">
        <label className="field-label" htmlFor="sequence-crossfade">
          {t('studio.sequences.crossfade')}
        </label>
        <select
          id="sequence-crossfade"
          className="input"
          data-testid="sequence-crossfade"
          value={String(crossfade)}
          onChange={(e) => setCrossfade(Number(e.target.value))}
        >
          {CROSSFADE_CHOICES.map((c) => (
            <option key={c} value={String(c)}>
              {c === 0 ? t('studio.sequences.cut') : formatSeconds(c)}
            </option>
          ))}
        </select>
        <button
          type="button"
          className="button button-primary"
          data-testid="sequence-assemble"
          disabled={!sequence.assemblable || assembling || busy}
          onClick={() => void assembleSequence(crossfade)}
        >
          {t('studio.sequences.assemble')}
        </button>
        {!sequence.assemblable ? (
          <span className="muted small">{t('studio.sequences.notAssemblable')}</span>
        ) : null}
      </div>
      {assembling ? (
        <div data-testid="sequence-assembly-state" data-state="assembling">
          <Progress.Root
            className="progress"
            value={percent}
            aria-label={t('studio.sequences.assembling')}
            data-testid="sequence-assembly-progress"
            data-progress={assembly.progress}
          >
            <Progress.Indicator
              className="progress-indicator"
              style={{ transform: `translateX(-${100 - percent}%)` }}
            />
          </Progress.Root>
          <p className="muted small" data-testid="sequence-assembly-status">
            {typeof assembly.waitingAhead === 'number'
              ? t('studio.sequences.assemblyWaiting', { count: assembly.waitingAhead })
              : t('studio.sequences.assemblingPercent', { percent })}
          </p>
        </div>
      ) : null}
      {assembly?.state === 'failed' ? (
        <p role="alert" className="error-text" data-testid="sequence-assembly-error">
          {t('studio.sequences.assemblyFailed', { message: assembly.errorMessage ?? '' })}
        </p>
      ) : null}
      {assembly?.state === 'ready' && assembly.mediaUrl ? (
        <div className="assembly-result" data-testid="sequence-assembly-state" data-state="ready">
          <video
            className="player"
            src={assembly.mediaUrl}
            controls
            preload="auto"
            playsInline
            data-testid="sequence-assembly-player"
          />
          <p
            className={sequence.assemblyCurrent ? 'ok-text small' : 'notice small'}
            data-testid="sequence-assembly-current"
            data-current={sequence.assemblyCurrent}
          >
            {sequence.assemblyCurrent ? t('studio.sequences.upToDate') : t('studio.sequences.changedSince')}
            {assembly.reused ? ` · ${t('studio.sequences.reused')}` : ''}
          </p>
          <dl className="facts">
            <dt>{t('studio.sequences.file')}</dt>
            <dd data-testid="sequence-assembly-file">
              {assembly.fileName}
              {assembly.byteSize !== null ? ` · ${formatBytes(assembly.byteSize)}` : ''}
            </dd>
            <dt>{t('studio.sequences.duration')}</dt>
            <dd data-testid="sequence-assembly-duration" data-seconds={assembly.durationSeconds ?? ''}>
              {assembly.durationSeconds !== null ? formatSeconds(assembly.durationSeconds, 2) : '—'}
              {' · '}
              {t('studio.sequences.crossfadeUsed', { seconds: formatSeconds(assembly.crossfadeSeconds) })}
            </dd>
            <dt>{t('studio.library.sha256')}</dt>
            <dd>
              <code className="hash" data-testid="sequence-assembly-sha256">
                {assembly.sha256}
              </code>
            </dd>
          </dl>
          <h4>{t('studio.sequences.chapters')}</h4>
          <ol className="chapters" data-testid="sequence-chapters">
            {assembly.chapters.map((c, i) => (
              <li key={`${c.title}-${i}`} data-testid="sequence-chapter">
                <strong>{c.title}</strong>{' '}
                <span className="muted small">
                  {formatSeconds(c.startSeconds, 2)} – {formatSeconds(c.endSeconds, 2)}
                </span>
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </section>
  );
}
