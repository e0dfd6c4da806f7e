import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.js';

export const NUL_MESSAGE = 'Text may not contain the NUL character (\\u0000).';

/** `%00` anywhere in the target (any case), or a raw NUL: no path id or query value may hold one. */
const NUL_IN_URL = /%00|\u0000/i;

/** The path (`links.0.email`) of the first string or key in a parsed JSON body that holds a NUL; undefined when none does. */
export function findNul(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '_' : undefined;
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return undefined;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return at;
    const found = findNul(item, at);
    if (found) return found;
  }
  return undefined;
}

/**
 * PostgreSQL refuses the NUL character in text (SQLite keeps it), so a NUL that reached a query answered
 * 500 there, sometimes after a provider had already been called (a refund note). No field of ours has a use
 * for it: a request carrying one in its path, query or JSON body is a 400 before any route runs. Raw bodies
 * (signed webhooks) are left to their handlers.
 */
export const nulCharactersPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request) => {
      if (NUL_IN_URL.test(request.url)) throw new AppError(400, 'validation_failed', NUL_MESSAGE);
    });
    app.addHook('preValidation', async (request) => {
      const field = findNul(request.body);
      if (field) throw new AppError(400, 'validation_failed', NUL_MESSAGE, { fields: { [field]: NUL_MESSAGE } });
    });
  },
  { name: 'nul-characters' },
);
