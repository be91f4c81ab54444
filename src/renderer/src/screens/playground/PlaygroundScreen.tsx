import { Tabs } from 'radix-ui';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { SERVICE_CALL_OPERATIONS, type ServiceCallOperationName } from '../../../../shared/bridge/names';
import { useStudio, type PlaygroundPanel } from '../../store';
import { AudioPanel } from './AudioPanel';
import { CallHistory } from './CallHistory';
import { ChatPanel } from './ChatPanel';
import { EmbeddingsPanel } from './EmbeddingsPanel';
import { ImagePanel } from './ImagePanel';
import { OcrPanel } from './OcrPanel';
import { ParsePanel } from './ParsePanel';
import { RerankPanel } from './RerankPanel';
import { TranscriptionPanel } from './TranscriptionPanel';
import './playground.css';

const PANELS: Record<PlaygroundPanel, () => React.JSX.Element> = {
  chat: ChatPanel,
  embeddings: EmbeddingsPanel,
  rerank: RerankPanel,
  ocr: OcrPanel,
  transcription: TranscriptionPanel,
  audio: AudioPanel,
  image: ImagePanel,
  parse: ParsePanel,
};

/**
 * The panels the backend offers (its capabilities), in this screen's order; every panel until the
 * capabilities are known.
 */
export function playgroundPanels(offered: readonly string[] | undefined): PlaygroundPanel[] {
  const all = Object.keys(PANELS) as PlaygroundPanel[];
  return offered ? all.filter((key) => offered.includes(key)) : all;
}

/** Every other service of the public API, one panel each, driven by discovery and the live contracts. */
export function PlaygroundScreen() {
  const { t } = useTranslation();
  const panels = playgroundPanels(useStudio((s) => s.info?.capabilities.playgroundPanels));
  const chosen = useStudio((s) => s.playgroundPanel);
  const panel = panels.includes(chosen) ? chosen : panels[0]!;
  const setPanel = useStudio((s) => s.setPlaygroundPanel);
  const servicesError = useStudio((s) => s.playgroundServicesError);
  const loadServices = useStudio((s) => s.loadPlaygroundServices);

  useEffect(() => {
    void loadServices();
  }, [loadServices]);

  return (
    <section className="screen" aria-labelledby="playground-title">
      <h1 id="playground-title">{t('playground.title')}</h1>
      {servicesError ? (
        <p role="alert" className="error-banner">
          {t('errors.generic', { message: servicesError })}
        </p>
      ) : null}
      <Tabs.Root value={panel} onValueChange={(v) => setPanel(v as PlaygroundPanel)} className="pg-tabs">
        <Tabs.List className="pg-tab-list" aria-label={t('playground.title')}>
          {panels.map((key) => (
            <Tabs.Trigger key={key} value={key} className="pg-tab" data-testid={`pg-tab-${key}`}>
              {t(`playground.tabs.${key}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {panels.map((key) => {
          const Panel = PANELS[key];
          return (
            <Tabs.Content key={key} value={key}>
              {key === panel ? <Panel /> : null}
            </Tabs.Content>
          );
        })}
      </Tabs.Root>
      {(SERVICE_CALL_OPERATIONS as readonly string[]).includes(panel) ? (
        <CallHistory key={panel} operation={panel as ServiceCallOperationName} />
      ) : null}
    </section>
  );
}
