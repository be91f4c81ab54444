import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MethodResult } from '../../../../shared/bridge/contract';
import { useStudio } from '../../store';
import { FileDrop, NumberField } from './common';
import { PanelScaffold } from './PanelScaffold';
import { usePlaygroundPanel } from './use-playground-panel';

const KINDS = ['document_parse'];

export function ParsePanel() {
  const { t } = useTranslation();
  const parseDocument = useStudio((s) => s.parseDocument);
  const sendPlaygroundFile = useStudio((s) => s.sendPlaygroundFile);
  const panel = usePlaygroundPanel<MethodResult<'playground.parse'>>(KINDS, { billed: false });
  const [language, setLanguage] = useState('');
  const [pages, setPages] = useState('');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [preset, setPreset] = useState('');

  const run = (file: File) =>
    panel.run(async () => {
      const sent = await sendPlaygroundFile(file);
      return parseDocument({
        model: panel.model,
        fileId: sent.fileId,
        ...(language ? { language } : {}),
        ...(pages.trim() ? { pages: Number(pages) } : {}),
        ...(start.trim() || end.trim()
          ? { pageRange: { start: Number(start || end), end: Number(end || start) } }
          : {}),
        ...(preset ? { preset } : {}),
      });
    });

  return (
    <PanelScaffold
      id="parse"
      title={t('playground.parse.title')}
      hint={t('playground.parse.hint')}
      panel={panel}
      options={
        <>
          <label className="pg-field">
            <span className="field-label">{t('playground.parse.language')}</span>
            <select
              data-testid="parse-language"
              value={language}
              onChange={(e) => setLanguage(e.target.value)}
            >
              <option value="">{t('playground.common.default')}</option>
              <option value="en">{t('playground.parse.en')}</option>
              <option value="ch">{t('playground.parse.ch')}</option>
            </select>
          </label>
          <NumberField
            testId="parse-pages"
            label={t('playground.parse.pages')}
            value={pages}
            onChange={setPages}
          />
          <NumberField
            testId="parse-start"
            label={t('playground.parse.from')}
            value={start}
            onChange={setStart}
          />
          <NumberField testId="parse-end" label={t('playground.parse.to')} value={end} onChange={setEnd} />
          <label className="pg-field">
            <span className="field-label">{t('playground.parse.preset')}</span>
            <select data-testid="parse-preset" value={preset} onChange={(e) => setPreset(e.target.value)}>
              <option value="">{t('playground.common.default')}</option>
              <option value="hybrid-medium">hybrid-medium</option>
              <option value="hybrid-high">hybrid-high</option>
            </select>
          </label>
        </>
      }
      renderResult={(result) => (
        <div data-testid="parse-result">
          <p>{t('playground.parse.summary', { count: result.pageCount })}</p>
          <p className="muted" data-testid="parse-folder">
            {t('playground.parse.saved', { folder: result.folder })}
          </p>
          <h3>{t('playground.parse.markdown')}</h3>
          <pre className="pg-json">{result.markdown}</pre>
          <h3>{t('playground.parse.blocks')}</h3>
          <table className="pg-blocks" data-testid="parse-blocks">
            <thead>
              <tr>
                <th>{t('playground.parse.page')}</th>
                <th>{t('playground.parse.type')}</th>
                <th>{t('playground.parse.text')}</th>
              </tr>
            </thead>
            <tbody>
              {result.pages.flatMap((page, p) =>
                ((page.blocks as { type?: string; text?: string }[] | undefined) ?? []).map((block, b) => (
                  <tr key={`${p}-${b}`}>
                    <td>{String(page.page ?? p + 1)}</td>
                    <td>{block.type ?? ''}</td>
                    <td>{block.text ?? ''}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </div>
      )}
    >
      <FileDrop
        testId="parse-file"
        accept="application/pdf"
        label={t('playground.parse.drop')}
        onFiles={([f]) => void run(f!)}
      />
    </PanelScaffold>
  );
}
