import { z } from 'zod';

/**
 * storyboard-helper's own interface (not the platform's): the shapes its simulated backend
 * answers and parses. Its OpenAPI document (`{business_base_url}/openapi.json`) is generated
 * from these.
 */

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, '64 lowercase hex');

export const StoryboardError = z
  .object({
    code: z.string(),
    message: z.string(),
    requestId: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

export const PanelImageSchema = z
  .object({
    /** A signed address of the app's own image storage, readable without a grant until `expiresAt`. */
    url: z.string(),
    mimeType: z.literal('image/png'),
    sha256: Sha256Hex,
    byteSize: z.number().int().positive(),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    expiresAt: z.iso.datetime(),
  })
  .strict();

export const PanelResultInput = z
  .object({
    title: z.string().min(1).max(200),
    mediaUrl: z
      .string()
      .max(2048)
      .regex(/^https?:\/\/\S+$/, 'an http or https address'),
    mimeType: z
      .string()
      .max(127)
      .regex(/^[a-z]+\/[a-z0-9.+-]+$/, 'a MIME type such as video/mp4'),
    sha256: Sha256Hex,
    byteSize: z.number().int().nonnegative(),
  })
  .strict();

export const PanelResultSchema = PanelResultInput.extend({
  writeId: z.string(),
  writtenAt: z.iso.datetime(),
}).strict();

export const PanelSchema = z
  .object({
    panelId: z.string(),
    position: z.number().int().positive(),
    prompt: z.string(),
    image: PanelImageSchema,
    /** The latest result written into the panel, or null. */
    result: PanelResultSchema.nullable(),
  })
  .strict();

export const BoardSchema = z
  .object({
    boardId: z.string(),
    title: z.string(),
    /** 1, plus one per accepted panel write. */
    revision: z.number().int().positive(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    panels: z.array(PanelSchema),
  })
  .strict();

export const BoardSummarySchema = z
  .object({
    boardId: z.string(),
    title: z.string(),
    panelCount: z.number().int().nonnegative(),
    revision: z.number().int().positive(),
    updatedAt: z.iso.datetime(),
  })
  .strict();

export const BoardListSchema = z
  .object({ object: z.literal('list'), items: z.array(BoardSummarySchema) })
  .strict();

export const PanelWriteRequest = z
  .object({ boardId: z.string().min(1), panelId: z.string().min(1), result: PanelResultInput })
  .strict();

export const PanelWriteResponse = z
  .object({
    /** True when the grant's idempotency key was already written: nothing was written again. */
    replayed: z.boolean(),
    write: z
      .object({
        writeId: z.string(),
        boardId: z.string(),
        panelId: z.string(),
        result: PanelResultInput,
        writtenAt: z.iso.datetime(),
      })
      .strict(),
  })
  .strict();

export const EchoSchema = z
  .object({
    method: z.string(),
    /** The path relative to the business base address, as received (query excluded). */
    path: z.string(),
    query: z.record(z.string(), z.string()),
    /** Every request header as received (lower-case names; repeated headers joined with ", "). */
    headers: z.record(z.string(), z.string()),
    bodySize: z.number().int().nonnegative(),
    bodySha256: Sha256Hex,
  })
  .strict();

export const InspectedWrite = z
  .object({
    writeId: z.string(),
    panelId: z.string(),
    callerAppKey: z.string(),
    idempotencyKey: z.string(),
    grantId: z.string(),
    requestDigest: z.string(),
    writtenAt: z.iso.datetime(),
    result: PanelResultInput,
  })
  .strict();

export const InspectedBoard = BoardSchema.extend({
  ownerUserId: z.string(),
  writes: z.array(InspectedWrite),
}).strict();

export const InspectedBoardList = z
  .object({
    object: z.literal('list'),
    items: z.array(BoardSummarySchema.extend({ ownerUserId: z.string() }).strict()),
  })
  .strict();

/** Every named schema of storyboard-helper's document. */
export const STORYBOARD_SCHEMAS = {
  StoryboardError,
  PanelImage: PanelImageSchema,
  PanelResultInput,
  PanelResult: PanelResultSchema,
  Panel: PanelSchema,
  Board: BoardSchema,
  BoardSummary: BoardSummarySchema,
  BoardList: BoardListSchema,
  PanelWriteRequest,
  PanelWriteResponse,
  EchoAnswer: EchoSchema,
  InspectedWrite,
  InspectedBoard,
  InspectedBoardList,
} as const;
