import type { StateCreator } from 'zustand';
import type {
  ChatMessageView,
  ConversationSummary,
  MethodName,
  MethodParams,
  MethodResult,
  PlaygroundFile,
  PlaygroundPanelName,
  PlaygroundService,
  ServiceCallOperationName,
  ServiceCallView,
} from '../../../shared/bridge/contract';
import { PLAYGROUND_MAX_FILE_BYTES } from '../../../shared/bridge/names';
import { bridge } from '../bridge';
import type { StudioState } from './index';

/** A Playground panel: the names the backend's capabilities offer. */
export type PlaygroundPanel = PlaygroundPanelName;

/** One synchronous call of a playground panel: its params in, its answer out. */
type Call<M extends MethodName> = (params: MethodParams<M>) => Promise<MethodResult<M>>;

/**
 * The Playground: its services, the chat's conversation and stream (kept across panel switches),
 * and one action per call its panels make.
 */
export interface PlaygroundSlice {
  playgroundPanel: PlaygroundPanel;
  playgroundServices: PlaygroundService[];
  playgroundServicesError: string | null;
  conversations: ConversationSummary[];
  conversationId: string | null;
  messages: ChatMessageView[];
  /** The reply as it streams; null when no reply is streaming. */
  streaming: { streamId: string; text: string } | null;
  chatError: string | null;
  /** Counts finished billed synchronous calls, so the History list reloads after each one. */
  billedCallsFinished: number;
  noteBilledCallFinished(): void;
  setPlaygroundPanel(panel: PlaygroundPanel): void;
  loadPlaygroundServices(): Promise<void>;
  loadConversations(query?: string): Promise<void>;
  openConversation(id: string | null): Promise<void>;
  sendChat(input: {
    model: string;
    system?: string;
    text: string;
    attachments: { fileId: string; inline: boolean }[];
    sampling: Record<string, number | string>;
  }): Promise<boolean>;
  cancelChat(): Promise<void>;
  receiveDelta(streamId: string, token: string): void;
  /** Sends a dropped file to the core in bounded chunks; refuses one past 25 MiB before sending anything. */
  sendPlaygroundFile(file: File): Promise<PlaygroundFile>;
  embed: Call<'playground.embed'>;
  rerank: Call<'playground.rerank'>;
  loadRerankDocuments: Call<'playground.rerank.loadDocuments'>;
  recognizeText: Call<'playground.ocr'>;
  transcribe: Call<'playground.transcribe'>;
  parseDocument: Call<'playground.parse'>;
  generateImage: Call<'playground.image.generate'>;
  generateAudio: Call<'playground.audio.generate'>;
  listVoices(): Promise<MethodResult<'playground.voices'>>;
  previewVoice: Call<'playground.voices.preview'>;
  /** The journaled billed calls of one synchronous operation, newest first. */
  listServiceCalls(operation: ServiceCallOperationName, limit: number): Promise<ServiceCallView[]>;
}

export const createPlaygroundSlice: StateCreator<StudioState, [], [], PlaygroundSlice> = (set, get) => ({
  playgroundPanel: 'chat',
  playgroundServices: [],
  playgroundServicesError: null,
  conversations: [],
  conversationId: null,
  messages: [],
  streaming: null,
  chatError: null,
  billedCallsFinished: 0,
  noteBilledCallFinished: () => set((state) => ({ billedCallsFinished: state.billedCallsFinished + 1 })),
  setPlaygroundPanel: (panel) => set({ playgroundPanel: panel }),
  async loadPlaygroundServices() {
    try {
      set({
        playgroundServices: await bridge.invoke('playground.services', {}),
        playgroundServicesError: null,
      });
    } catch (error) {
      set({ playgroundServicesError: error instanceof Error ? error.message : String(error) });
    }
  },
  async loadConversations(query) {
    set({ conversations: await bridge.invoke('playground.conversations.list', query ? { query } : {}) });
  },
  async openConversation(id) {
    if (!id) {
      set({ conversationId: null, messages: [], chatError: null });
      return;
    }
    const conversation = await bridge.invoke('playground.conversations.get', { id });
    set({ conversationId: conversation.id, messages: conversation.messages, chatError: null });
  },
  async sendChat(input) {
    const streamId = `s-${Date.now()}-${Math.random().toString(36).slice(2)}`;
    const pending: ChatMessageView = {
      role: 'user',
      text: input.text,
      attachments: input.attachments.map(() => 'attachment'),
      finishReason: null,
      createdAt: Date.now(),
    };
    const before = get().messages;
    set({ streaming: { streamId, text: '' }, chatError: null, messages: [...before, pending] });
    try {
      const { conversation } = await bridge.invoke('playground.chat.send', {
        streamId,
        model: input.model,
        ...(get().conversationId ? { conversationId: get().conversationId! } : { system: input.system }),
        text: input.text,
        attachments: input.attachments,
        sampling: input.sampling,
      });
      set({ conversationId: conversation.id, messages: conversation.messages, streaming: null });
      void get().loadConversations();
      return true;
    } catch (error) {
      // nothing was saved: drop the pending message and the partial reply
      const code = (error as { code?: string }).code;
      set({
        messages: before,
        streaming: null,
        chatError:
          code === 'chat.cancelled' ? 'cancelled' : error instanceof Error ? error.message : String(error),
      });
      return false;
    }
  },
  async cancelChat() {
    const streaming = get().streaming;
    if (streaming) await bridge.invoke('playground.chat.cancel', { streamId: streaming.streamId });
  },
  receiveDelta(streamId, token) {
    const streaming = get().streaming;
    if (streaming?.streamId === streamId) set({ streaming: { streamId, text: streaming.text + token } });
  },
  sendPlaygroundFile: sendToStaging,
  embed: (params) => bridge.invoke('playground.embed', params),
  rerank: (params) => bridge.invoke('playground.rerank', params),
  loadRerankDocuments: (params) => bridge.invoke('playground.rerank.loadDocuments', params),
  recognizeText: (params) => bridge.invoke('playground.ocr', params),
  transcribe: (params) => bridge.invoke('playground.transcribe', params),
  parseDocument: (params) => bridge.invoke('playground.parse', params),
  generateImage: (params) => bridge.invoke('playground.image.generate', params),
  generateAudio: (params) => bridge.invoke('playground.audio.generate', params),
  listVoices: () => bridge.invoke('playground.voices', {}),
  previewVoice: (params) => bridge.invoke('playground.voices.preview', params),
  listServiceCalls: (operation, limit) => bridge.invoke('playground.calls.list', { operation, limit }),
});

/**
 * Hands a dropped file to the core's one staging store (as Create does, for the Playground);
 * refuses one past 25 MiB before sending anything.
 */
async function sendToStaging(file: File): Promise<PlaygroundFile> {
  if (file.size > PLAYGROUND_MAX_FILE_BYTES)
    throw Object.assign(new Error('too_large'), { code: 'playground.too_large' });
  return bridge.stageFile(file, 'playground');
}
