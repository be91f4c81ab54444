import type { z } from 'zod';
import { ResponseShapeError } from './api-errors.js';
import { MAX_JSON_BODY_BYTES, readCappedText } from './capped-body.js';

/**
 * Reads a JSON answer and validates it against a shared schema of src/shared/api: a changed
 * server fails loudly and precisely (which field, what is wrong), not later and vaguely. At most
 * {@link MAX_JSON_BODY_BYTES} are read (after decompression); a larger answer is refused.
 */
export async function readJsonBody<S extends z.ZodType>(
  response: Response,
  schema: S,
  operation: string,
): Promise<z.output<S>> {
  const text = await readCappedText(response, MAX_JSON_BODY_BYTES, operation);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ResponseShapeError(operation, `expected JSON, got ${JSON.stringify(text.slice(0, 80))}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ResponseShapeError(
      operation,
      `${issue?.path.join('.') || '(body)'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}
