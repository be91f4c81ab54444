import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readMediaSpec } from '../../../../shared/api/contract-vocabulary';
import type { GenerationResult, PlaygroundFile } from '../../../../shared/bridge/contract';
import { useStudio } from '../../store';
import { Counter, EnumSelect, FileDrop, NumberField, codePoints, paramOf } from './common';
import { GenerationResultView } from './GenerationResultView';
import { PanelScaffold } from './PanelScaffold';
import { usePlaygroundPanel } from './use-playground-panel';

const KINDS = ['image_generation'];
const ENUMS = ['orientation', 'outputSizeCode', 'qualityTier', 'resolutionTier'] as const;

export function ImagePanel() {
  const { t } = useTranslation();
  const generateImage = useStudio((s) => s.generateImage);
  const sendPlaygroundFile = useStudio((s) => s.sendPlaygroundFile);
  const panel = usePlaygroundPanel<GenerationResult>(KINDS, { billed: false });
  const { service } = panel;
  const contract = readMediaSpec(service?.mediaSpecContract);
  const modeParam = paramOf(service, 'generationMode');
  const countParam = paramOf(service, 'imageCount');
  const [prompt, setPrompt] = useState('');
  const [mode, setMode] = useState('');
  const [count, setCount] = useState('');
  const [enums, setEnums] = useState<Record<string, string>>({});
  const [seed, setSeed] = useState('');
  const [inputs, setInputs] = useState<PlaygroundFile[]>([]);
  const effectiveMode = mode || String(modeParam?.default ?? 't2i');
  const modeInfo = Object.hasOwn(contract.modes, effectiveMode) ? contract.modes[effectiveMode] : undefined;
  const maxInputs = modeInfo?.maxInputImages ?? Object.keys(modeInfo?.frames ?? {}).length;

  const run = () =>
    panel.run(() => {
      const chosen: Record<string, string> = {};
      for (const key of ENUMS) if (paramOf(service, key) && enums[key]) chosen[key] = enums[key]!;
      return generateImage({
        model: panel.model,
        prompt,
        ...(mode ? { generationMode: mode } : {}),
        ...(countParam && count.trim() ? { imageCount: Number(count) } : {}),
        ...chosen,
        ...(seed.trim() ? { seed: Number(seed) } : {}),
        inputFileIds: maxInputs > 0 ? inputs.map((i) => i.fileId) : [],
      });
    });

  return (
    <PanelScaffold
      id="image"
      title={t('playground.image.title')}
      hint={t('playground.image.hint')}
      panel={panel}
      options={
        <>
          {modeParam ? (
            <EnumSelect
              id="image-mode"
              label={t('playground.image.mode')}
              param={modeParam}
              value={mode}
              onChange={setMode}
            />
          ) : null}
          {countParam ? (
            <NumberField
              testId="image-count"
              label={`${t('playground.image.count')}${countParam.maximum !== undefined ? ` (1–${countParam.maximum})` : ''}`}
              value={count}
              onChange={setCount}
            />
          ) : null}
          {ENUMS.map((key) => {
            const param = paramOf(service, key);
            return param ? (
              <EnumSelect
                key={key}
                id={`image-${key}`}
                label={t(`playground.image.${key}`)}
                param={param}
                value={enums[key] ?? ''}
                onChange={(v) => setEnums({ ...enums, [key]: v })}
              />
            ) : null;
          })}
          {paramOf(service, 'seed') ? (
            <NumberField
              testId="image-seed"
              label={t('playground.common.seed')}
              value={seed}
              onChange={setSeed}
            />
          ) : null}
        </>
      }
      runLabel={t('playground.image.run')}
      onRun={() => void run()}
      renderResult={(result) => <GenerationResultView result={result} kind="image" testId="image-result" />}
    >
      <label className="pg-field">
        <span className="field-label">
          {t('playground.image.prompt')}{' '}
          <Counter
            testId="image-prompt-count"
            value={codePoints(prompt.trim())}
            max={contract.prompt.maxCodePoints}
          />
        </span>
        <textarea
          data-testid="image-prompt"
          rows={3}
          value={prompt}
          onChange={(e) => setPrompt(e.target.value)}
        />
      </label>
      {maxInputs > 0 ? (
        <div className="pg-row">
          <FileDrop
            testId="image-inputs"
            accept="image/png,image/jpeg,image/webp"
            multiple
            label={t('playground.image.inputs', { max: maxInputs })}
            onFiles={(list) =>
              void panel.attempt(async () => {
                const sent: PlaygroundFile[] = [];
                for (const f of list) sent.push(await sendPlaygroundFile(f));
                setInputs((x) => [...x, ...sent]);
              })
            }
          />
          <span data-testid="image-input-names">{inputs.map((i) => i.fileName).join(', ')}</span>
        </div>
      ) : null}
    </PanelScaffold>
  );
}
