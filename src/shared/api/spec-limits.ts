/**
 * Limits the spec states in its text, declared once (no imports: the renderer, the core, the CLI
 * and the simulator all read them). A live contract may publish its own value; these are what the
 * spec says when it does not (see contract-vocabulary.ts for each key's fallback).
 */

/**
 * The H3 prompt: "1..7000 Unicode code points after trimming" (public API, "H3 profile"). The
 * prompt optimizer takes and returns prompts within the same bound (`originalPrompt`,
 * `optimizedPrompt`).
 */
export const H3_PROMPT_CODE_POINTS = { min: 1, max: 7000 } as const;
