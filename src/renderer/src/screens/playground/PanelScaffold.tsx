import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert, ModelSelect, Panel } from './common';
import type { PlaygroundPanelState } from './use-playground-panel';

interface Props<R> {
  /** The panel's test id prefix: `${id}-model`, `${id}-run`, `${id}-error`. */
  id: string;
  title: string;
  hint: string;
  panel: PlaygroundPanelState<R>;
  /** Beside the model picker: the panel's options from the live contract. */
  options?: ReactNode;
  /** The panel's inputs, below the options. */
  children?: ReactNode;
  /** A panel run by a button: its label and what it does (a panel run by a dropped file has none). */
  runLabel?: string;
  onRun?(): void;
  /** Shown between the error and the result (e.g. the audio a transcript belongs to). */
  beforeResult?: ReactNode;
  renderResult(result: R): ReactNode;
}

/** One playground panel: model picker and options, inputs, run, then the error or the result. */
export function PanelScaffold<R>(props: Props<R>) {
  const { t } = useTranslation();
  const { panel, id } = props;
  return (
    <Panel title={props.title} hint={props.hint}>
      <div className="pg-row">
        <ModelSelect
          id={`${id}-model`}
          services={panel.services}
          value={panel.model}
          onChange={panel.setModel}
        />
        {props.options}
      </div>
      {props.children}
      {props.onRun ? (
        <button
          type="button"
          className="button pg-primary"
          data-testid={`${id}-run`}
          disabled={panel.busy || panel.preparing || !panel.model}
          aria-busy={panel.busy || panel.preparing}
          onClick={props.onRun}
        >
          {panel.busy ? t('playground.common.working') : props.runLabel}
        </button>
      ) : panel.busy ? (
        <p className="muted">{t('playground.common.working')}</p>
      ) : null}
      <ErrorAlert testId={`${id}-error`} message={panel.error} />
      {props.beforeResult}
      {panel.result !== null ? props.renderResult(panel.result) : null}
    </Panel>
  );
}
