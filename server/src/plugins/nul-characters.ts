import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.js';

export const NUL_MESSAGE = 'Text may not contain the NUL character (\\u0000).';

/** How deep a JSON body may nest (an object or array inside another is one level deeper); no body of ours nears it. */
export const MAX_BODY_DEPTH = 64;
export const TOO_DEEP_MESSAGE = `The request body nests deeper than ${MAX_BODY_DEPTH} levels.`;

/** `%00` anywhere in the target (any case), or a raw NUL: no path id or query value may hold one. */
const NUL_IN_URL = /%00|\u0000/i;

/** What is wrong with a parsed body: a NUL at `path`, or nesting past the limit. */
export type BodyProblem = { nul: string } | { tooDeep: true };

const isContainer = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Buffer.isBuffer(value);

/**
 * The first problem of a parsed JSON body, walked with a stack of its own (never recursion: a body of
 * thousands of `[` would overflow the call stack): a string or key holding a NUL (its path, `links.0.email`),
 * or an object or array nested deeper than `maxDepth`. Undefined when there is none.
 */
export function checkBody(body: unknown, maxDepth = MAX_BODY_DEPTH): BodyProblem | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { nul: path || '_' };
      continue;
    }
    if (!isContainer(value)) continue;
    if (depth >= maxDepth) return { tooDeep: true };
    const entries = Object.entries(value);
    // Pushed last to first, so the first field is looked at first (the path named is the first one in the body).
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, item] = entries[i]!;
      const at = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return { nul: at };
      stack.push({ value: item, path: at, depth: depth + 1 });
    }
  }
  return undefined;
}

/** The path (`links.0.email`) of the first string or key in a parsed JSON body that holds a NUL; undefined when none does. */
export function findNul(value: unknown): string | undefined {
  const problem = checkBody(value, Number.POSITIVE_INFINITY);
  return problem && 'nul' in problem ? problem.nul : undefined;
}

/**
 * PostgreSQL refuses the NUL character in text (SQLite keeps it), so a NUL that reached a query answered
 * 500 there, sometimes after a provider had already been called (a refund note). No field of ours has a use
 * for it: a request carrying one in its path, query or JSON body is a 400 before any route runs. A JSON body
 * nested deeper than MAX_BODY_DEPTH is a 400 too (`invalid_body`), before anything walks it. Raw bodies
 * (signed webhooks) are left to their handlers.
 */
export const nulCharactersPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request) => {
      if (NUL_IN_URL.test(request.url)) throw new AppError(400, 'validation_failed', NUL_MESSAGE);
    });
    app.addHook('preValidation', async (request) => {
      const problem = checkBody(request.body);
      if (!problem) return;
      if ('tooDeep' in problem) throw new AppError(400, 'invalid_body', TOO_DEEP_MESSAGE);
      throw new AppError(400, 'validation_failed', NUL_MESSAGE, { fields: { [problem.nul]: NUL_MESSAGE } });
    });
  },
  { name: 'nul-characters' },
);
