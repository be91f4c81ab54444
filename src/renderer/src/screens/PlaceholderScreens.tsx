import { useTranslation } from 'react-i18next';
import { EmptyState } from '../components/EmptyState';

type ScreenKey = 'create' | 'queue' | 'library' | 'playground';

function ScreenWithEmptyState({ screen }: { screen: ScreenKey }) {
  const { t } = useTranslation();
  return (
    <section className="screen" aria-labelledby={`${screen}-title`}>
      <h1 id={`${screen}-title`}>{t(`${screen}.title`)}</h1>
      <EmptyState title={t(`${screen}.emptyTitle`)} body={t(`${screen}.emptyBody`)} />
    </section>
  );
}

export const CreateScreen = () => <ScreenWithEmptyState screen="create" />;
export const QueueScreen = () => <ScreenWithEmptyState screen="queue" />;
export const LibraryScreen = () => <ScreenWithEmptyState screen="library" />;
export { PlaygroundScreen } from './playground/PlaygroundScreen';
