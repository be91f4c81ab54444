import { create, type StateCreator } from 'zustand';
import type {
  ChatMessageView,
  ConversationSummary,
  PlaygroundService,
} from '../../../shared/bridge/contract';
import { bridge } from '../bridge';

export type PlaygroundPanel =
  'chat' | 'embeddings' | 'rerank' | 'ocr' | 'transcription' | 'audio' | 'image' | 'parse';

/** What the Playground keeps across panel switches: services, and the chat's conversation and stream. */
export interface PlaygroundSlice {
  panel: PlaygroundPanel;
  services: PlaygroundService[];
  servicesError: string | null;
  conversations: ConversationSummary[];
  conversationId: string | null;
  messages: ChatMessageView[];
  /** The reply as it streams; null when no reply is streaming. */
  streaming: { streamId: string; text: string } | null;
  chatError: string | null;
  /** Counts finished billed synchronous calls, so the History list reloads after each one. */
  billedCallsFinished: number;
  noteBilledCallFinished(): void;
  setPanel(panel: PlaygroundPanel): void;
  loadServices(): Promise<void>;
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
}

export const createPlaygroundSlice: StateCreator<PlaygroundSlice> = (set, get) => ({
  panel: 'chat',
  services: [],
  servicesError: null,
  conversations: [],
  conversationId: null,
  messages: [],
  streaming: null,
  chatError: null,
  billedCallsFinished: 0,
  noteBilledCallFinished: () => set((state) => ({ billedCallsFinished: state.billedCallsFinished + 1 })),
  setPanel: (panel) => set({ panel }),
  async loadServices() {
    try {
      set({ services: await bridge.invoke('playground.services', {}), servicesError: null });
    } catch (error) {
      set({ servicesError: error instanceof Error ? error.message : String(error) });
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
});

/** The Playground's own store (kept apart from the studio store so each domain owns its state). */
export const usePlayground = create<PlaygroundSlice>()((...args) => ({ ...createPlaygroundSlice(...args) }));
