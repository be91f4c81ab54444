import { readApiUsage } from '../../../../shared/api/contract-vocabulary';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { useStudio } from '../../store';
import type { PlaygroundFile } from '../../../../shared/bridge/contract';
import { ErrorAlert, FileDrop, ModelSelect, NumberField, Panel, errorText, usePanelModel } from './common';

const CHAT_KINDS = ['text_chat', 'vision_chat'];

export function ChatPanel() {
  const { t } = useTranslation();
  const sendPlaygroundFile = useStudio((s) => s.sendPlaygroundFile);
  const { services, model, setModel, service } = usePanelModel(CHAT_KINDS);
  const usage = readApiUsage(service?.apiUsageContract);
  const partTypes = usage.contentPartTypes;
  const samplingFields = usage.samplingFields;
  const takesMedia = partTypes.includes('image_url') || partTypes.includes('video_url');
  // inline only where the model allows it and the backend can send it (not the platform's runtime)
  const inlineAllowed =
    useStudio((s) => s.info?.capabilities.chatInlineImages === true) && usage.inlineImages;

  const s = useStudio(
    useShallow((state) => ({
      conversations: state.conversations,
      conversationId: state.conversationId,
      messages: state.messages,
      streaming: state.streaming,
      chatError: state.chatError,
      loadConversations: state.loadConversations,
      openConversation: state.openConversation,
      sendChat: state.sendChat,
      cancelChat: state.cancelChat,
    })),
  );
  const [system, setSystem] = useState('');
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const [sampling, setSampling] = useState<Record<string, string>>({});
  const [attachments, setAttachments] = useState<PlaygroundFile[]>([]);
  const [inline, setInline] = useState(false);
  const [fileError, setFileError] = useState<string | null>(null);

  useEffect(() => {
    void s.loadConversations(query.trim() || undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query]);

  const send = async () => {
    const values: Record<string, number | string> = {};
    for (const field of samplingFields) {
      const raw = sampling[field]?.trim();
      if (!raw) continue;
      values[field] = Number.isFinite(Number(raw)) ? Number(raw) : raw;
    }
    const ok = await s.sendChat({
      model,
      system: system.trim() || undefined,
      text,
      attachments: attachments.map((a) => ({ fileId: a.fileId, inline })),
      sampling: values,
    });
    if (ok) {
      setText('');
      setAttachments([]);
    }
  };

  const busy = s.streaming !== null;
  return (
    <Panel title={t('playground.chat.title')} hint={t('playground.chat.hint')}>
      <div className="pg-chat">
        <aside className="pg-conversations" aria-label={t('playground.chat.conversations')}>
          <button
            type="button"
            className="button"
            data-testid="chat-new"
            onClick={() => void s.openConversation(null)}
          >
            {t('playground.chat.new')}
          </button>
          <input
            type="search"
            data-testid="chat-search"
            placeholder={t('playground.chat.search')}
            aria-label={t('playground.chat.search')}
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
          <ul data-testid="chat-conversations">
            {s.conversations.map((c) => (
              <li key={c.id}>
                <button
                  type="button"
                  className={`pg-link${c.id === s.conversationId ? ' pg-link-active' : ''}`}
                  onClick={() => void s.openConversation(c.id)}
                >
                  {c.title}
                </button>
              </li>
            ))}
          </ul>
        </aside>
        <div className="pg-chat-main">
          <div className="pg-row">
            <ModelSelect id="chat-model" services={services} value={model} onChange={setModel} />
            {samplingFields.map((field) => (
              <NumberField
                key={field}
                testId={`chat-sampling-${field}`}
                label={t(`playground.chat.sampling.${field}`, { defaultValue: field })}
                value={sampling[field] ?? ''}
                onChange={(v) => setSampling({ ...sampling, [field]: v })}
                decimal
              />
            ))}
          </div>
          {s.conversationId === null ? (
            <label className="pg-field">
              <span className="field-label">{t('playground.chat.system')}</span>
              <input data-testid="chat-system" value={system} onChange={(e) => setSystem(e.target.value)} />
            </label>
          ) : null}
          <ol className="pg-messages" data-testid="chat-messages" aria-live="polite">
            {s.messages.map((m, i) => (
              <li key={i} className={`pg-message pg-${m.role}`} data-testid={`chat-message-${m.role}`}>
                <strong>{t(`playground.chat.role.${m.role}`)}</strong> {m.text}
                {m.attachments.length ? (
                  <span className="muted">
                    {' '}
                    · {t('playground.chat.attachments', { count: m.attachments.length })}
                  </span>
                ) : null}
              </li>
            ))}
            {s.streaming ? (
              <li className="pg-message pg-assistant" data-testid="chat-streaming">
                <strong>{t('playground.chat.role.assistant')}</strong> {s.streaming.text}
                <span className="pg-caret" aria-hidden="true">
                  ▍
                </span>
              </li>
            ) : null}
          </ol>
          {s.chatError ? (
            <ErrorAlert
              testId="chat-error"
              message={s.chatError === 'cancelled' ? t('playground.chat.cancelled') : s.chatError}
            />
          ) : null}
          {takesMedia ? (
            <div className="pg-row">
              <FileDrop
                testId="chat-attach"
                accept="image/*,video/*"
                multiple
                label={t('playground.chat.attach')}
                onFiles={async (list) => {
                  setFileError(null);
                  try {
                    const sent: PlaygroundFile[] = [];
                    for (const f of list) sent.push(await sendPlaygroundFile(f));
                    setAttachments((a) => [...a, ...sent]);
                  } catch (error) {
                    setFileError(errorText(error, t));
                  }
                }}
              />
              {inlineAllowed ? (
                <label className="pg-check">
                  <input type="checkbox" checked={inline} onChange={(e) => setInline(e.target.checked)} />
                  {t('playground.chat.inline')}
                </label>
              ) : null}
              <span data-testid="chat-attachments">{attachments.map((a) => a.fileName).join(', ')}</span>
            </div>
          ) : null}
          <ErrorAlert testId="chat-file-error" message={fileError} />
          <div className="pg-row">
            <textarea
              data-testid="chat-input"
              aria-label={t('playground.chat.message')}
              placeholder={t('playground.chat.message')}
              value={text}
              rows={3}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !busy) void send();
              }}
            />
            {busy ? (
              <button
                type="button"
                className="button"
                data-testid="chat-cancel"
                onClick={() => void s.cancelChat()}
              >
                {t('playground.chat.cancel')}
              </button>
            ) : (
              <button
                type="button"
                className="button pg-primary"
                data-testid="chat-send"
                disabled={!model || (!text.trim() && attachments.length === 0)}
                onClick={() => void send()}
              >
                {t('playground.chat.send')}
              </button>
            )}
          </div>
        </div>
      </div>
    </Panel>
  );
}
