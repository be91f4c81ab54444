import type { z } from 'zod';
import { ResponseShapeError } from './api-errors.js';

/**
 * Reads a JSON answer and validates it against a shared schema of src/shared/api: a changed
 * server fails loudly and precisely (which field, what is wrong), not later and vaguely.
 */
export async function readJsonBody<S extends z.ZodType>(
  response: Response,
  schema: S,
  operation: string,
): Promise<z.output<S>> {
  const text = await response.text();
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
