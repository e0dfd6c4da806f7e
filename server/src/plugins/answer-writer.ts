import fastJson from 'fast-json-stringify';
import { z } from 'zod';
import { keepDeclared, type DeclaredShape } from './keep-declared.js';

/**
 * The shape without `additionalProperties: false`: fast-json-stringify leaves undeclared fields out by itself, and
 * with it an answer carrying one would match no branch of a union (ajv picks the branch) and not be written.
 */
function allowingExtraFields(shape: unknown): unknown {
  if (Array.isArray(shape)) return shape.map(allowingExtraFields);
  if (shape === null || typeof shape !== 'object') return shape;
  return Object.fromEntries(
    Object.entries(shape)
      .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
      .map(([key, value]) => [key, allowingExtraFields(value)]),
  );
}

/**
 * How production writes an answer: its zod schema as JSON Schema, compiled by fast-json-stringify, so only the
 * declared fields go out, faster than `JSON.stringify` (zod's own check runs in tests, where a mismatch fails). An
 * answer that does not fit (a required field missing: a row stored before a rule) is reported and sent with what
 * the schema declares (keep-declared.ts), never as a 500.
 */
export function answerWriter(schema: z.ZodType, onMismatch: (err: unknown) => void): (data: unknown) => string {
  const { $schema: _, ...shape } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as DeclaredShape & { $schema?: string };
  const write = fastJson(allowingExtraFields(shape) as Parameters<typeof fastJson>[0]);
  return (data) => {
    try {
      return write(data);
    } catch (err) {
      onMismatch(err);
      return JSON.stringify(keepDeclared(shape, data));
    }
  };
}
