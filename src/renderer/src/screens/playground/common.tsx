import { useState, type DragEvent, type ReactNode } from 'react';
import { contractParameterOf, readMediaSpec } from '../../../../shared/api/contract-vocabulary';
import { useTranslation } from 'react-i18next';
import type { PlaygroundFile, PlaygroundService } from '../../../../shared/bridge/contract';
import { PLAYGROUND_MAX_FILE_BYTES } from '../../../../shared/bridge/names';
import { bridge } from '../../bridge';
import { usePlayground } from '../../store/playground-slice';

/**
 * Hands a dropped file to the core's one staging store (as Create does, for the Playground);
 * refuses one past 25 MiB before sending anything.
 */
export async function sendFile(file: File): Promise<PlaygroundFile> {
  if (file.size > PLAYGROUND_MAX_FILE_BYTES)
    throw Object.assign(new Error('too_large'), { code: 'playground.too_large' });
  return bridge.stageFile(file, 'playground');
}

/** A decoded data: URL as a blob: URL (the page's policy plays blob: media, not data:). */
export function blobUrlOf(dataUrl: string): string {
  const [head, body] = dataUrl.split(',', 2) as [string, string];
  const type = /^data:([^;]+)/.exec(head)?.[1] ?? 'application/octet-stream';
  const binary = atob(body);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return URL.createObjectURL(new Blob([bytes], { type }));
}

export function errorText(
  error: unknown,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  const code = (error as { code?: string }).code;
  if (code === 'playground.too_large') return t('playground.common.tooLarge');
  return error instanceof Error ? error.message : String(error);
}

export function useServicesOf(kinds: readonly string[]): PlaygroundService[] {
  const services = usePlayground((s) => s.services);
  return services.filter((s) => kinds.includes(s.serviceKind));
}

/** The model picker: the services of the panel's kinds from discovery (unavailable ones disabled). */
export function ModelSelect(props: {
  id: string;
  services: PlaygroundService[];
  value: string;
  onChange(value: string): void;
}) {
  const { t } = useTranslation();
  return (
    <label className="pg-field">
      <span className="field-label">{t('playground.common.model')}</span>
      <select
        id={props.id}
        data-testid={props.id}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      >
        {props.services.map((s) => (
          <option key={s.modelAlias} value={s.modelAlias} disabled={!s.available}>
            {s.displayName} ({s.modelAlias})
            {s.available
              ? ''
              : ` — ${t(s.availability === 'not_stated' ? 'playground.common.availabilityNotStated' : 'playground.common.unavailable')}`}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The first available model of a list, kept while it stays in the list. */
export function useModel(services: PlaygroundService[]): [string, (m: string) => void] {
  const [chosen, setChosen] = useState('');
  const valid = services.find((s) => s.modelAlias === chosen && s.available);
  const model = valid ? chosen : (services.find((s) => s.available)?.modelAlias ?? '');
  return [model, setChosen];
}

/** A drop zone that is also a file picker (keyboard: the button opens the picker). */
export function FileDrop(props: {
  testId: string;
  accept?: string;
  multiple?: boolean;
  label: string;
  onFiles(files: File[]): void;
}) {
  const [over, setOver] = useState(false);
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const files = [...e.dataTransfer.files];
    if (files.length) props.onFiles(props.multiple ? files : files.slice(0, 1));
  };
  return (
    <div
      className={`pg-drop${over ? ' pg-drop-over' : ''}`}
      data-testid={`${props.testId}-zone`}
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <label className="button">
        {props.label}
        <input
          type="file"
          className="pg-file-input"
          data-testid={props.testId}
          accept={props.accept}
          multiple={props.multiple}
          onChange={(e) => {
            const files = [...(e.target.files ?? [])];
            e.target.value = '';
            if (files.length) props.onFiles(files);
          }}
        />
      </label>
    </div>
  );
}

export function ErrorAlert({ message, testId }: { message: string | null; testId: string }) {
  if (!message) return null;
  return (
    <p role="alert" className="error-banner" data-testid={testId}>
      {message}
    </p>
  );
}

export function Panel({ title, hint, children }: { title: string; hint: string; children: ReactNode }) {
  return (
    <section className="panel pg-panel" aria-label={title}>
      <h2>{title}</h2>
      <p className="muted">{hint}</p>
      {children}
    </section>
  );
}

/** Code points, as the service counts them. */
export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

export interface ContractParam {
  name: string;
  type?: string;
  values?: (string | number)[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  default?: unknown;
  modes?: string[];
}

/** One parameter the service's live contract publishes (undefined: the field is not offered). */
export function paramOf(service: PlaygroundService | undefined, name: string): ContractParam | undefined {
  return contractParameterOf(readMediaSpec(service?.mediaSpecContract), name);
}

/** A select of a published enum; "" means "not sent" (the service decides). */
export function EnumSelect(props: {
  id: string;
  label: string;
  param: ContractParam;
  value: string;
  onChange(value: string): void;
}) {
  const { t } = useTranslation();
  return (
    <label className="pg-field">
      <span className="field-label">{props.label}</span>
      <select data-testid={props.id} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">
          {t('playground.common.default')}
          {props.param.default !== undefined ? ` (${String(props.param.default)})` : ''}
        </option>
        {(props.param.values ?? []).map((v) => (
          <option key={String(v)} value={String(v)}>
            {String(v)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A short numeric text field (kept as text so a half-typed value is never silently changed). */
export function NumberField(props: {
  testId: string;
  label: ReactNode;
  value: string;
  onChange(value: string): void;
  decimal?: boolean;
}) {
  return (
    <label className="pg-field pg-small">
      <span className="field-label">{props.label}</span>
      <input
        data-testid={props.testId}
        inputMode={props.decimal ? 'decimal' : 'numeric'}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}

export function Counter({ value, max, testId }: { value: number; max?: number; testId: string }) {
  const over = max !== undefined && value > max;
  return (
    <span className={`pg-counter${over ? ' pg-over' : ''}`} data-testid={testId}>
      {max !== undefined ? `${value} / ${max}` : value}
    </span>
  );
}

/** Saves text as a file through the browser's download. */
export function download(name: string, text: string, type = 'text/plain'): void {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
