import { useTranslation } from 'react-i18next';
import type { JobMarksView } from '../../../../shared/bridge/contract';
import { MAX_STARS, type MarkFlag } from '../../../../shared/library-marks';

/** A change of marks a button asks for (a pressed flag again clears it; a lit star again unrates). */
export interface MarkButtonsChange {
  flag?: MarkFlag | null;
  stars?: number;
}

/**
 * Pick and Reject toggles and five stars, as the Library's cards and the reviewer show them (one
 * set of buttons, one set of names for a screen reader; their keys P, X and 0-5 are the caller's).
 */
export function MarkButtons({
  marks,
  onMark,
  testIdPrefix,
}: {
  marks: JobMarksView;
  onMark: (change: MarkButtonsChange) => void;
  /** `library` or `reviewer`: `<prefix>-mark-pick`, `<prefix>-stars`. */
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  return (
    <>
      {(['pick', 'reject'] as const).map((flag) => (
        <button
          key={flag}
          type="button"
          className={`mark-flag mark-${flag}`}
          aria-pressed={marks.flag === flag}
          aria-keyshortcuts={flag === 'pick' ? 'P' : 'X'}
          data-testid={`${testIdPrefix}-mark-${flag}`}
          onClick={() => onMark({ flag: marks.flag === flag ? null : flag })}
        >
          <span aria-hidden="true">{flag === 'pick' ? '⚑' : '✕'}</span> {t(`studio.library.${flag}`)}
        </button>
      ))}
      <span className="mark-stars" data-testid={`${testIdPrefix}-stars`} data-stars={marks.stars}>
        {Array.from({ length: MAX_STARS }, (_, i) => i + 1).map((n) => (
          <button
            key={n}
            type="button"
            className={`mark-star${n <= marks.stars ? ' mark-star-on' : ''}`}
            aria-pressed={n <= marks.stars}
            aria-label={t('studio.library.stars', { count: n })}
            aria-keyshortcuts={String(n)}
            onClick={() => onMark({ stars: marks.stars === n ? 0 : n })}
          >
            <span aria-hidden="true">{n <= marks.stars ? '★' : '☆'}</span>
          </button>
        ))}
      </span>
    </>
  );
}
