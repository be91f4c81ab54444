import path from 'node:path';
import type { ChatMessage } from '../../../../shared/api/chat.js';
import { runtimeInputOf, type RuntimeInputsDeps } from './runtime-inputs.js';
import type { Journal } from '../../journal/open-journal.js';
import {
  cancelled,
  chatCapabilities,
  chatTurnWith,
  readChatEvents,
  replyOfCompletion,
  type ChatSender,
} from '../../operations/chat.js';
import { embeddingsWith } from '../../operations/embeddings.js';
import { checkOcrInput, journaledOcr } from '../../operations/ocr.js';
import { rerankWith } from '../../operations/rerank.js';
import { checkTranscription, journaledTranscription } from '../../operations/transcription.js';
import { InputLimitError, type Answer } from '../../operations/service-common.js';
import type { RuntimeAnswer, RuntimeApiClient } from '../../api-clients/runtime/runtime-api-client.js';
import type { RuntimeCallInput } from '../../api-clients/runtime/runtime-schemas.js';
import type { PlaygroundCalls } from '../playground-calls.js';
import { requireSession, type CurrentSession } from './runtime-session.js';

export interface RuntimePlaygroundDeps {
  /** Conversations and the billed calls' rows (`serviceCalls`) are journaled here. */
  journal: Journal;
  client: Pick<RuntimeApiClient, 'chatCompletions' | 'embeddings' | 'rerank' | 'ocr' | 'transcribe'>;
  /** The person's session now (null: `runtime.no_session`, nothing sent). */
  session: CurrentSession;
  /** The person's object storage: media travels as signed `readUrl`s. */
  readUrls: RuntimeInputsDeps;
  /** The journal's profile of this workspace (its rows and conversations). */
  profileId: string;
}

const answerOf = <T>(answer: RuntimeAnswer<T>): Answer<T> => ({
  body: answer.body,
  requestId: answer.requestId,
});

/** The text of a stored message: the runtime takes text in `messages` and media only in `inputs`. */
function textOnly(message: ChatMessage): ChatMessage {
  const { content } = message;
  if (typeof content === 'string' || content === null || content === undefined) return message;
  return {
    ...message,
    content: content
      .filter((part) => part.type === 'text')
      .map((part) => part.text ?? '')
      .join('\n'),
  };
}

/**
 * The Playground's synchronous calls on the platform's deployed runtime (application-platform-api.md,
 * section A), with the public operations' checks and journaling: media is stored in the person's
 * storage and sent as `inputs[]` of `{readUrl, mimeType, sha256, byteSize}` (after every local
 * check passed); each call needs the person's session. Billed: every call is sent exactly once —
 * a 5xx, a dropped connection or a timeout is recorded (`failed` / `unknown`) and reported, never
 * sent again automatically.
 */
export function runtimePlaygroundCalls(deps: RuntimePlaygroundDeps): Omit<PlaygroundCalls, 'parse'> {
  const { journal, client, profileId } = deps;
  const asInput = async (
    file: { path: string; fileName: string; sha256?: string },
    mimeType?: string,
  ): Promise<RuntimeCallInput> => {
    // the role only names the object for a job; a synchronous call's input has none
    const input = await runtimeInputOf(file, 'reference_image', deps.readUrls);
    return {
      readUrl: input.readUrl,
      mimeType: mimeType ?? input.mimeType,
      sha256: input.sha256,
      byteSize: input.byteSize,
      expiresAt: input.expiresAt,
    };
  };

  const sendChat: ChatSender = async (args) => {
    const { service, text, checked, signal, onToken, onStep } = args;
    // the runtime takes media only in `inputs`: an image asked inline is refused, not sent otherwise
    const inline = checked.find((c) => c.attachment.inline);
    if (inline)
      throw new InputLimitError(
        'attachments',
        `${inline.file.fileName} cannot be sent inline here: attached images travel as stored media.`,
      );
    const auth = await requireSession(deps.session);
    const inputs: RuntimeCallInput[] = [];
    for (const { file } of checked) {
      onStep?.(`store ${file.fileName}`);
      inputs.push(await asInput(file));
    }
    // the message carries the text; the attached images and videos are the call's inputs
    const content = text;
    onStep?.('streaming');
    let answer;
    try {
      answer = await client.chatCompletions(
        auth,
        {
          model: service.modelAlias,
          messages: [...args.history.map(textOnly), { role: 'user', content }],
          ...(args.sampling ?? {}),
          stream: chatCapabilities(service).streaming,
          ...(inputs.length > 0 ? { inputs } : {}),
        },
        { signal },
      );
    } catch (error) {
      if (signal?.aborted) throw cancelled();
      throw error;
    }
    if (answer.kind === 'completion') return { content, reply: replyOfCompletion(answer.body, onToken) };
    const { stream } = answer;
    const reply = await readChatEvents(
      stream,
      async () => {
        stream.destroy();
      },
      { signal, onToken },
    );
    return { content, reply };
  };

  return {
    chat: (input) => chatTurnWith(journal, profileId, sendChat, input),

    embed: async (service, inputs) => {
      const auth = await requireSession(deps.session);
      return embeddingsWith(
        journal,
        profileId,
        async (body) => answerOf(await client.embeddings(auth, body)),
        service,
        inputs,
      );
    },

    rerank: async (service, input) => {
      const auth = await requireSession(deps.session);
      return rerankWith(
        journal,
        profileId,
        async (body) => answerOf(await client.rerank(auth, body)),
        service,
        input,
      );
    },

    ocr: async (service, filePath, options = {}) => {
      // the runtime's OCR reads exactly one image from inputs (no document input)
      const checked = await checkOcrInput(service, filePath, options, false);
      const auth = await requireSession(deps.session);
      const input = await asInput(checked.file, checked.file.mimeType);
      const body = {
        model: service.modelAlias,
        inputs: [input],
        ...(options.task !== undefined ? { task: options.task } : {}),
        ...(options.pages !== undefined ? { pages: options.pages } : {}),
      };
      return journaledOcr(
        journal,
        profileId,
        service,
        // the stored object's content address stands for the asset; the signed URL is not journaled
        { ...checked, assetId: input.sha256!, sourceFields: {} },
        options,
        async () => answerOf(await client.ocr(auth, body)),
      );
    },

    transcribe: async (service, filePath, options = {}) => {
      const checked = await checkTranscription(service, filePath, options);
      const auth = await requireSession(deps.session);
      const input = await asInput(
        { path: filePath, fileName: path.basename(filePath), sha256: checked.sha256 },
        checked.mimeType,
      );
      const body = {
        model: service.modelAlias,
        inputs: [input],
        ...(options.language !== undefined ? { language: options.language } : {}),
        ...(options.responseFormat !== undefined ? { response_format: options.responseFormat } : {}),
      };
      return journaledTranscription(journal, profileId, service, checked, options, async () =>
        answerOf(await client.transcribe(auth, body)),
      );
    },
  };
}
