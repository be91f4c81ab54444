import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DELIVERY_PRESETS } from '../../../../shared/delivery-formats';
import { useStudio } from '../../store';
import { useDeliveries } from '../../store/deliveries-store';
import '../sequences/deliveries-i18n';

/**
 * The library's films (issue 31): every sequence's verified deliveries, newest first, each played
 * in the library's player; the one the Deliveries panel asked for opens first.
 */
export function LibraryFilms() {
  const { t } = useTranslation();
  const offered = useStudio((s) => s.info?.capabilities.sequences === true);
  const films = useDeliveries((s) => s.films);
  const loadFilms = useDeliveries((s) => s.loadFilms);
  const focused = useDeliveries((s) => s.focusedFilm);
  const [picked, setPicked] = useState<string | null>(null);
  const playing = picked ?? focused;

  useEffect(() => {
    if (offered) void loadFilms();
  }, [offered, loadFilms]);

  if (!offered || films === null) return null;
  const current = films.find((f) => f.deliveryId === playing && f.mediaUrl);
  return (
    <section
      className="panel library-films"
      aria-labelledby="library-films-title"
      data-testid="library-films"
    >
      <h2 id="library-films-title">{t('deliveries.films')}</h2>
      <p className="muted small">{t('deliveries.filmsHint')}</p>
      {films.length === 0 ? <p className="muted">{t('deliveries.noFilms')}</p> : null}
      {current ? (
        <video
          key={current.deliveryId}
          className="player"
          src={current.mediaUrl!}
          controls
          autoPlay
          preload="auto"
          playsInline
          data-testid="library-film-player"
          data-delivery={current.deliveryId}
          data-preset={current.preset}
        />
      ) : null}
      <ul className="row" style={{ listStyle: 'none', padding: 0, flexWrap: 'wrap' }}>
        {films.map((film) => {
          const label = DELIVERY_PRESETS[film.preset].label;
          return (
            <li key={film.deliveryId} data-testid="library-film" data-preset={film.preset}>
              <button
                type="button"
                className="button button-small"
                aria-pressed={film.deliveryId === playing}
                aria-label={t('deliveries.playFilmLabel', { name: film.sequenceName, label })}
                data-testid="library-film-play"
                onClick={() => setPicked(film.deliveryId)}
              >
                {t('deliveries.playFilm')} · {film.sequenceName} · {label} ({film.width}×{film.height})
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
