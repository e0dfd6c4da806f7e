import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { keepDeclared, type DeclaredShape } from './keep-declared.js';

const shapeOf = (schema: z.ZodType) => z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as DeclaredShape;

describe('keepDeclared: what an answer keeps of itself when it does not match its schema', () => {
  it('keeps the declared fields, nested and in arrays, and drops the rest', () => {
    const shape = shapeOf(z.object({ id: z.string(), owner: z.object({ email: z.string() }).nullable(), items: z.array(z.object({ n: z.number() })) }));
    expect(keepDeclared(shape, { id: 'a', owner: { email: 'e', password: 'x' }, items: [{ n: 1, secret: 2 }], token: 't' })).toEqual({
      id: 'a',
      owner: { email: 'e' },
      items: [{ n: 1 }],
    });
    expect(keepDeclared(shape, { id: 'a', owner: null, items: [] })).toEqual({ id: 'a', owner: null, items: [] });
  });

  it('picks the branch of a union whose required fields the answer has (a desktop sign-in keeps its tokens)', () => {
    const shape = shapeOf(z.union([z.object({ user: z.string(), accessToken: z.string() }), z.object({ user: z.string() })]));
    expect(keepDeclared(shape, { user: 'u', accessToken: 'a', extra: 1 })).toEqual({ user: 'u', accessToken: 'a' });
    expect(keepDeclared(shape, { user: 'u', extra: 1 })).toEqual({ user: 'u' });
  });

  it('keeps free-form values whole and filters the values of a record by their shape', () => {
    const shape = shapeOf(z.object({ details: z.record(z.string(), z.unknown()), names: z.record(z.string(), z.object({ name: z.string() })) }));
    expect(keepDeclared(shape, { details: { a: { deep: 1 } }, names: { ru: { name: 'Плюс', x: 1 } } })).toEqual({
      details: { a: { deep: 1 } },
      names: { ru: { name: 'Плюс' } },
    });
  });
});
