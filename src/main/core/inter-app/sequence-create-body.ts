import { z } from 'zod';

/**
 * Framewright's own interface as a callee (API version 2026-01, scope `sequence.create`): the
 * body another application sends to create a sequence from a board — the board's content only,
 * nothing about who sends it (the person comes from the grant's `subject`). Unknown fields are
 * refused, so what is digested is exactly what is read.
 */

export const SEQUENCE_API_VERSION = '2026-01';
export const SEQUENCE_CREATE_SCOPE = 'sequence.create';
/** The route below Framewright's public origin. */
export const SEQUENCE_CREATE_PATH = `/inter-app/${SEQUENCE_API_VERSION}/sequences`;
/** The largest body read (a board of 100 panels with 7,000-character prompts fits). */
export const SEQUENCE_CREATE_MAX_BYTES = 1024 * 1024;
export const SEQUENCE_MAX_PANELS = 100;

const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, '64 lowercase hex');

export const SentPanelImage = z
  .object({
    /** Where the caller's storage serves the panel's image (http or https), readable without a grant. */
    url: z
      .string()
      .max(4096)
      .regex(/^https?:\/\/\S+$/, 'an http or https address'),
    mimeType: z.enum(['image/png', 'image/jpeg', 'image/webp']),
    sha256: Sha256Hex,
    byteSize: z
      .number()
      .int()
      .positive()
      .max(30 * 1024 * 1024),
  })
  .strict();

export const SentPanel = z
  .object({
    panelId: z.string().min(1).max(200),
    position: z.number().int().positive(),
    /** The panel's prompt (the public prompt bound: at most 7,000 characters). */
    prompt: z.string().max(7000),
    image: SentPanelImage,
  })
  .strict();

export const SentBoard = z
  .object({
    boardId: z.string().min(1).max(200),
    title: z.string().max(500),
    revision: z.number().int().positive(),
    panels: z.array(SentPanel).min(1).max(SEQUENCE_MAX_PANELS),
  })
  .strict();

export type SentBoard = z.infer<typeof SentBoard>;

/** The answer: the sequence made (201), or the one a replay of the same action made (200). */
export interface SequenceCreated {
  sequenceId: string;
  boardId: string;
  replayed: boolean;
}
