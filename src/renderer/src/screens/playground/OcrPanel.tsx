import { readApiUsage } from '../../../../shared/api/contract-vocabulary';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MethodResult } from '../../../../shared/bridge/contract';
import { useStudio } from '../../store';
import { FileDrop, NumberField } from './common';
import { PanelScaffold } from './PanelScaffold';
import { usePlaygroundPanel } from './use-playground-panel';

const KINDS = ['ocr'];

export function OcrPanel() {
  const { t } = useTranslation();
  const recognizeText = useStudio((s) => s.recognizeText);
  const sendPlaygroundFile = useStudio((s) => s.sendPlaygroundFile);
  const panel = usePlaygroundPanel<MethodResult<'playground.ocr'>>(KINDS, { billed: true });
  const usage = readApiUsage(panel.service?.apiUsageContract);
  const [task, setTask] = useState('');
  const [pages, setPages] = useState('');
  const [file, setFile] = useState<{ name: string; isImage: boolean; url: string | null } | null>(null);
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);

  useEffect(
    () => () => {
      if (file?.url) URL.revokeObjectURL(file.url);
    },
    [file],
  );

  const run = (dropped: File) => {
    const isImage = dropped.type.startsWith('image/');
    setFile({ name: dropped.name, isImage, url: isImage ? URL.createObjectURL(dropped) : null });
    return panel.run(async () => {
      const sent = await sendPlaygroundFile(dropped);
      return recognizeText({
        model: panel.model,
        fileId: sent.fileId,
        ...(task ? { task } : {}),
        ...(!isImage && pages.trim() ? { pages: Number(pages) } : {}),
      });
    });
  };

  const accept = usage.supportsDocumentAsset
    ? 'image/png,image/jpeg,image/webp,application/pdf'
    : 'image/png,image/jpeg,image/webp';
  return (
    <PanelScaffold
      id="ocr"
      title={t('playground.ocr.title')}
      hint={t(usage.supportsDocumentAsset ? 'playground.ocr.hintDocuments' : 'playground.ocr.hint')}
      panel={panel}
      options={
        <>
          {usage.ocrTasks?.length ? (
            <label className="pg-field">
              <span className="field-label">{t('playground.ocr.task')}</span>
              <select data-testid="ocr-task" value={task} onChange={(e) => setTask(e.target.value)}>
                <option value="">{t('playground.common.default')}</option>
                {usage.ocrTasks.map((x) => (
                  <option key={x} value={x}>
                    {x}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {usage.supportsDocumentAsset ? (
            <NumberField
              testId="ocr-pages"
              label={t('playground.ocr.pages')}
              value={pages}
              onChange={setPages}
            />
          ) : null}
        </>
      }
      renderResult={(result) => (
        <div className="pg-split" data-testid="ocr-result">
          {file?.url ? (
            <div className="pg-ocr-image">
              <img
                src={file.url}
                alt={file.name}
                data-testid="ocr-image"
                onLoad={(e) =>
                  setNatural({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })
                }
              />
              {natural ? (
                <svg viewBox={`0 0 ${natural.w} ${natural.h}`} preserveAspectRatio="none" aria-hidden="true">
                  {result.boxes.map((b, i) => (
                    <rect
                      key={i}
                      data-testid="ocr-box"
                      x={b.bbox[0]}
                      y={b.bbox[1]}
                      width={Math.max(0, b.bbox[2]! - b.bbox[0]!)}
                      height={Math.max(0, b.bbox[3]! - b.bbox[1]!)}
                    >
                      <title>{b.text}</title>
                    </rect>
                  ))}
                </svg>
              ) : null}
            </div>
          ) : null}
          <div>
            <h3>{t('playground.ocr.json')}</h3>
            <pre className="pg-json" data-testid="ocr-json">
              {JSON.stringify(result.raw, null, 2)}
            </pre>
          </div>
        </div>
      )}
    >
      <FileDrop
        testId="ocr-file"
        accept={accept}
        label={t('playground.ocr.drop')}
        onFiles={([f]) => void run(f!)}
      />
    </PanelScaffold>
  );
}
