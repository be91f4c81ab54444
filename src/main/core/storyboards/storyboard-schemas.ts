import { z } from 'zod';

/**
 * Storyboard Helper's own business interface (its `openapi.json`, not the platform's), as
 * Framewright reads it: only what it uses, unknown fields allowed (the callee may add some).
 */

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/** The application, its API version and scopes as `framewright-studio` declares the dependency. */
export const STORYBOARD_HELPER = {
  appKey: 'storyboard-helper',
  label: 'Storyboard Helper',
  apiVersion: '2026-01',
  readScope: 'storyboard.read',
  writeScope: 'storyboard.write',
} as const;

export const BoardSummary = z
  .object({
    boardId: z.string().min(1),
    title: z.string(),
    panelCount: z.number().int(),
    updatedAt: z.string(),
  })
  .loose();
export const BoardList = z.object({ items: z.array(BoardSummary) }).loose();
export type BoardSummary = z.infer<typeof BoardSummary>;

export const PanelResult = z
  .object({ writeId: z.string(), sha256: Sha256Hex, mediaUrl: z.string(), title: z.string() })
  .loose();

export const PanelImage = z
  .object({
    url: z.string().url(),
    mimeType: z.string(),
    sha256: Sha256Hex,
    byteSize: z.number().int().positive(),
  })
  .loose();

export const Panel = z
  .object({
    panelId: z.string().min(1),
    position: z.number().int(),
    prompt: z.string(),
    image: PanelImage,
    result: PanelResult.nullable().optional(),
  })
  .loose();
export type Panel = z.infer<typeof Panel>;

export const Board = z
  .object({ boardId: z.string().min(1), title: z.string(), panels: z.array(Panel) })
  .loose();
export type Board = z.infer<typeof Board>;

/** What Framewright writes into a panel (`POST /panel-results`'s `result`). */
export interface PanelResultInput {
  title: string;
  mediaUrl: string;
  mimeType: string;
  sha256: string;
  byteSize: number;
}

export const PanelWriteAnswer = z
  .object({
    replayed: z.boolean(),
    write: z.object({ writeId: z.string(), boardId: z.string(), panelId: z.string() }).loose(),
  })
  .loose();
export type PanelWriteAnswer = z.infer<typeof PanelWriteAnswer>;

/** The callee's error body `{code, message, requestId}`. */
export const CalleeError = z.object({ code: z.string(), message: z.string().optional() }).loose();
