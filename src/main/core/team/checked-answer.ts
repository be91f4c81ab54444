import type { z } from 'zod';
import { AppError } from '../errors.js';

/** A platform answer checked against `schema`; one that does not fit is a clear `team.unexpected_response`. */
export function checkedAnswer<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    throw new AppError(
      'team.unexpected_response',
      `The platform's ${what} is not in the expected shape (${parsed.error.issues
        .slice(0, 3)
        .map((i) => `${i.path.join('.') || 'body'}: ${i.message}`)
        .join('; ')}).`,
    );
  return parsed.data;
}
