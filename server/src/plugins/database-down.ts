import type { ApiErrorBody } from '../../../shared/errors.js';

/** How long a client (a VPN app, a payment provider's webhook) is asked to wait before trying again. */
export const DATABASE_RETRY_AFTER_SECONDS = 30;

/** The answer to a request that needed the database while it does not answer (a customer message, translated). */
export const DATABASE_UNAVAILABLE = {
  code: 'service_unavailable',
  message: 'Service is temporarily unavailable. Please try again later or contact support.',
} satisfies ApiErrorBody;

/** The socket errors of a connection that cannot be made or was cut (PostgreSQL stopped, restarting, or unreachable). */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL's own codes for "not now": class 08 (connection exceptions), the server shutting down or starting
 * (57P01–57P03), too many connections (53300).
 */
const SERVER_CODES = /^(08...|57P0[123]|53300)$/;

/**
 * What pg and knex say when a connection ends or none can be had (knex: no connection from the pool, or the pool
 * is gone; better-sqlite3: its file was closed).
 */
const CONNECTION_MESSAGES =
  /Connection terminated|Connection ended unexpectedly|Unable to acquire a connection|Knex: Timeout acquiring a connection|The database connection is not open/i;

/**
 * Whether an error means the database cannot be reached now rather than that the request or the code is wrong.
 * Such a request is answered 503 `service_unavailable` with Retry-After (plugins/errors.ts), never 500: VPN apps
 * and payment providers try again, and no stack trace is logged for each of them.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if (err.name === 'KnexTimeoutError') return true;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_CODES.has(code) || SERVER_CODES.test(code))) return true;
  return CONNECTION_MESSAGES.test(err.message);
}
