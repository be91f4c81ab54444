import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isCallable, serviceAvailability } from '../../../../shared/api/service-availability.js';
import type {
  ConversationView,
  GenerationResult,
  playgroundMethods,
} from '../../../../shared/bridge/domains/playground.js';
import type { ServiceEntry } from '../../../../shared/api/discovery.js';
import { AppError } from '../../errors.js';
import type { RunResult } from '../../jobs/job-engine.js';
import type { ConversationWithMessages } from '../../operations/playground-feature.js';
import { audioJob } from '../../operations/audio-generation.js';
import { imageJob } from '../../operations/image-generation.js';
import { documentsFromFile } from '../../operations/rerank.js';
import { SERVICE_KINDS } from '../../operations/service-common.js';
import { mediaUrl } from '../../library/media-resolver.js';
import type { StagedFiles } from '../../storage/staged-files.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';
import type { StudioHost } from '../../library/studio-host.js';

const PLAYGROUND_KINDS = new Set<string>(Object.values(SERVICE_KINDS).flat());
/** How long a Playground generation is waited for before it is answered as pending. */
export const GENERATION_WAIT_SECONDS = 15 * 60;

function conversationView(c: ConversationWithMessages): ConversationView {
  return {
    id: c.id,
    title: c.title,
    model: c.model,
    updatedAt: c.updatedAt,
    systemPrompt: c.systemPrompt ?? null,
    messages: c.messages.map((m) => ({
      role: m.role,
      text: m.text,
      attachments: Array.isArray(m.content)
        ? (m.content as { type?: string }[]).map((p) => p.type ?? '').filter((t) => t !== 'text')
        : [],
      finishReason: m.finishReason ?? null,
      createdAt: m.createdAt,
    })),
  };
}

/** A generation's outcome as the Playground shows it (its verified files by signed media routes). */
export function generationResultOf(result: RunResult, host: StudioHost): GenerationResult {
  return {
    state: result.state,
    jobId: result.job?.jobId ?? null,
    status: result.job?.status ?? null,
    message:
      result.state === 'pending'
        ? result.reason
        : result.state === 'failed'
          ? `${result.job.errorCode ?? 'failed'}: ${result.job.errorMessage ?? ''}`
          : null,
    outputs: (result.job?.outputs ?? []).map((o) => ({
      url:
        o.downloadState === 'verified' && result.job
          ? mediaUrl(host, `library/${result.job.id}/${o.id}`)
          : null,
      mimeType: o.mimeType ?? o.expectedMimeType ?? null,
      fileName: o.localPath ? path.basename(o.localPath) : null,
      verified: o.downloadState === 'verified',
    })),
  };
}

/** `playground.files.put`: one chunk of a Playground file into the staging store. */
export function putPlaygroundChunk(staged: Pick<StagedFiles, 'putChunk'>) {
  return async ({
    uploadId,
    fileName,
    offset,
    dataBase64,
    last,
  }: {
    uploadId?: string;
    fileName: string;
    offset: number;
    dataBase64: string;
    last: boolean;
  }) => {
    const data = Buffer.from(dataBase64, 'base64');
    const out = await staged.putChunk({ uploadId, fileName, offset, data, last });
    return {
      uploadId: out.uploadId,
      received: out.received,
      file: out.complete ? { fileId: out.uploadId, fileName: out.fileName, byteSize: out.received } : null,
    };
  };
}

/** The Playground's list entry of a service. */
export function playgroundServiceView(s: ServiceEntry) {
  return {
    modelAlias: s.modelAlias,
    serviceKind: s.serviceKind,
    displayName: s.serviceDisplayName ?? s.modelAlias,
    available: isCallable(s),
    availability: serviceAvailability(s),
    apiUsageContract: s.apiUsageContract ?? null,
    mediaSpecContract: s.mediaSpecContract ?? null,
  };
}

/** The Playground's bridge handlers: every other service of the backend, over the same core. */
export function createPlaygroundHandlers(ctx: HandlerContext): DomainHandlers<typeof playgroundMethods> {
  const { studio } = ctx;
  const { backend, staged } = studio;
  const files = { pathOf: staged.chunkedPath.bind(staged) };
  const streams = new Map<string, AbortController>();
  const profileId = () => backend.activeProfileId();
  const generationResult = (result: RunResult) => generationResultOf(result, ctx.host);

  return {
    'playground.services': async () => {
      const { services: list } = await backend.services(undefined);
      return list
        .filter((s) => PLAYGROUND_KINDS.has(s.serviceKind))
        .map((s) => ({
          modelAlias: s.modelAlias,
          serviceKind: s.serviceKind,
          displayName: s.displayName,
          available: s.available,
          availability: s.availability,
          apiUsageContract: s.apiUsageContract,
          mediaSpecContract: s.mediaSpecContract,
        }));
    },
    'playground.files.put': putPlaygroundChunk(staged),
    'playground.chat.send': async (params) => {
      const service = await backend.service(SERVICE_KINDS.chat, params.model);
      if (streams.has(params.streamId)) throw new AppError('chat.busy', 'This reply is already streaming.');
      const controller = new AbortController();
      streams.set(params.streamId, controller);
      try {
        const attachments = [];
        for (const a of params.attachments)
          attachments.push({ filePath: await files.pathOf(a.fileId), inline: a.inline });
        const calls = await backend.playgroundCalls();
        const turn = await calls.chat({
          service,
          conversationId: params.conversationId,
          system: params.system,
          text: params.text,
          attachments,
          sampling: params.sampling,
          signal: controller.signal,
          onToken: (token) => ctx.events.emit('playground.chat.delta', { streamId: params.streamId, token }),
        });
        return {
          conversation: conversationView(studio.playground.conversationWithMessages(turn.conversation.id)!),
        };
      } finally {
        streams.delete(params.streamId);
      }
    },
    'playground.chat.cancel': ({ streamId }) => {
      const controller = streams.get(streamId);
      controller?.abort();
      return { cancelled: Boolean(controller) };
    },
    'playground.conversations.list': ({ query }) => {
      const list = studio.playground.conversations(profileId(), query?.trim() ? query : undefined);
      return list.map((c) => ({ id: c.id, title: c.title, model: c.model, updatedAt: c.updatedAt }));
    },
    'playground.conversations.get': ({ id }) => {
      const c = studio.playground.conversationWithMessages(id);
      if (!c || c.profileId !== profileId()) throw new AppError('chat.not_found', 'No such conversation.');
      return conversationView(c);
    },
    'playground.calls.list': ({ operation, limit }) =>
      studio.calls({ profileId: profileId(), operation, limit: limit ?? 20 }).items.map((c) => ({
        id: c.id,
        operation: c.operation,
        model: c.model,
        state: c.state,
        startedAt: c.startedAt,
        finishedAt: c.finishedAt ?? null,
        requestId: c.requestId ?? null,
        statusCode: c.statusCode ?? null,
        errorCode: c.errorCode ?? null,
      })),
    'playground.embed': async ({ model, inputs }) => {
      const service = await backend.service(SERVICE_KINDS.embeddings, model);
      const r = await (await backend.playgroundCalls()).embed(service, inputs);
      return { model: r.model, count: r.vectors.length, dimensions: r.dimensions, similarity: r.similarity };
    },
    'playground.rerank': async ({ model, query, documents, topN }) => {
      const service = await backend.service(SERVICE_KINDS.rerank, model);
      const r = await (await backend.playgroundCalls()).rerank(service, { query, documents, topN });
      return { model: r.model, results: r.results };
    },
    'playground.rerank.loadDocuments': async ({ fileId }) => {
      const file = await files.pathOf(fileId);
      return { documents: documentsFromFile(path.basename(file), await readFile(file, 'utf8')) };
    },
    'playground.ocr': async ({ model, fileId, task, pages }) => {
      const service = await backend.service(SERVICE_KINDS.ocr, model);
      const file = await files.pathOf(fileId);
      const r = await (await backend.playgroundCalls()).ocr(service, file, { task, pages });
      return {
        raw: r.raw,
        text: r.text ?? null,
        boxes: r.boxes.map((b) => ({
          text: b.text,
          bbox: b.bbox,
          confidence: b.confidence ?? null,
          page: b.page ?? null,
        })),
      };
    },
    'playground.transcribe': async ({ model, fileId, language, responseFormat }) => {
      const service = await backend.service(SERVICE_KINDS.transcription, model);
      const file = await files.pathOf(fileId);
      const r = await (
        await backend.playgroundCalls()
      ).transcribe(service, file, {
        language,
        responseFormat,
      });
      return {
        text: r.response.text,
        language: r.response.language,
        duration: r.response.duration,
        segments: r.response.segments.map((s) => ({ id: s.id, start: s.start, end: s.end, text: s.text })),
        exports: r.exports,
      };
    },
    'playground.voices': async () =>
      (await backend.voices()).map((v) => ({
        voiceId: v.voiceId,
        displayName: v.displayName,
        primaryLanguage: v.primaryLanguage,
        supportedLanguages: v.supportedLanguages,
        description: v.description ?? null,
        hasPreview: Boolean(v.previewAssetId),
      })),
    'playground.voices.preview': ({ voiceId, model }) => backend.voicePreview(voiceId, model),
    'playground.audio.generate': async ({ model, videoFileId, ...draft }) => {
      const service = await backend.service(SERVICE_KINDS.audio, model);
      const videoFile = videoFileId ? await files.pathOf(videoFileId) : undefined;
      const job = await audioJob({
        profileId: profileId(),
        service,
        draft: { ...draft, videoFile },
        wait: { waitSeconds: GENERATION_WAIT_SECONDS },
      });
      return generationResult(await backend.createMediaJob(job));
    },
    'playground.image.generate': async ({ model, inputFileIds, ...draft }) => {
      const service = await backend.service(SERVICE_KINDS.image, model);
      const inputImages: string[] = [];
      for (const id of inputFileIds) inputImages.push(await files.pathOf(id));
      const job = await imageJob({
        profileId: profileId(),
        service,
        draft: { ...draft, inputImages },
        wait: { waitSeconds: GENERATION_WAIT_SECONDS },
      });
      return generationResult(await backend.createMediaJob(job));
    },
    'playground.parse': async ({ model, fileId, language, pages, pageRange, preset }) => {
      const service = await backend.service(SERVICE_KINDS.parse, model);
      const libraryDir = studio.libraryDir();
      const file = await files.pathOf(fileId);
      const r = await (
        await backend.playgroundCalls()
      ).parse(service, file, libraryDir, {
        language,
        pages,
        pageRange,
        preset,
      });
      return {
        id: r.response.id,
        pageCount: r.response.pageCount,
        markdown: r.response.markdown,
        pages: r.response.pages as Record<string, unknown>[],
        // no absolute path crosses the bridge: the folder inside the library, the files by name
        folder: path.relative(libraryDir, r.folder).split(path.sep).join('/'),
        files: r.files.map((file) => path.basename(file)),
      };
    },
  };
}
