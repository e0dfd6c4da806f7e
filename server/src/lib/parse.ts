import type { z } from 'zod';
import { validationFailed } from '../errors.js';

/**
 * Validates untrusted input against a shared schema. Failure is a 400 `validation_failed` whose
 * `fields` name each bad field, and whose message is the first field's problem.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  const fields: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : '_';
    fields[key] ??= key === '_' && issue.code === 'invalid_type' ? 'Send a JSON object.' : issue.message;
  }
  const first = Object.values(fields)[0];
  throw validationFailed(fields, first);
}
