import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ApiErrorBody } from '../../../shared/errors.js';
import { MESSAGES } from '../../../shared/errors.js';
import { AppError } from '../errors.js';
import { localizeErrorBody } from '../i18n/index.js';
import { localeFromAcceptLanguage } from '../lib/locale.js';
import { varyOn } from '../lib/vary.js';
import { DATABASE_RETRY_AFTER_SECONDS, DATABASE_UNAVAILABLE, isDatabaseUnreachable } from './database-down.js';

/** A body over the route's limit (Fastify refuses it before reading it): 413, not a 500 or a reset. */
const PAYLOAD_TOO_LARGE = { code: 'payload_too_large', message: 'The request body is too large.' } satisfies ApiErrorBody;

/** Fastify's own errors for a body it could not read: all are the client's fault, all answer 400. */
const BODY_ERRORS: Record<string, ApiErrorBody> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'invalid_body', message: 'Send the request body as JSON (Content-Type: application/json).' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'invalid_body', message: 'The request body is empty; send a JSON object.' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'invalid_body', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'invalid_body', message: 'The request body does not match its Content-Length.' },
};

/**
 * The body in the request's language (its `Accept-Language`, as the web app sends its page's): the
 * customer-facing messages are translated (server/src/i18n), `code` never is. English, or no header: as written.
 */
function localized(request: FastifyRequest, reply: FastifyReply, body: ApiErrorBody, retryAfterSeconds?: number): ApiErrorBody {
  // Tells caches the body depends on `Accept-Language`.
  varyOn(reply, 'Accept-Language');
  return localizeErrorBody(body, localeFromAcceptLanguage(request.headers['accept-language']), retryAfterSeconds);
}

/** One error shape for every failure: `{ code, message }` (+ `fields`), never a stack trace. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
      if (err instanceof AppError) {
        if (err.details.retryAfterSeconds !== undefined) reply.header('Retry-After', String(err.details.retryAfterSeconds));
        const body: ApiErrorBody = { code: err.code, message: err.message };
        if (err.details.fields) body.fields = err.details.fields;
        if (err.details.codeStatus) body.codeStatus = err.details.codeStatus;
        if (err.details.rows) body.rows = err.details.rows;
        if (err.details.reason) body.reason = err.details.reason;
        if (err.details.needed !== undefined) body.needed = err.details.needed;
        return reply.status(err.statusCode).send(localized(request, reply, body, err.details.retryAfterSeconds));
      }

      if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return reply.status(413).send(localized(request, reply, PAYLOAD_TOO_LARGE));
      const bodyError = (err.code && BODY_ERRORS[err.code]) || (err instanceof SyntaxError ? BODY_ERRORS.FST_ERR_CTP_INVALID_JSON_BODY : undefined);
      if (bodyError) return reply.status(400).send(localized(request, reply, bodyError satisfies ApiErrorBody));

      // The database does not answer (stopped, restarting, cut off): a client and a payment provider try again later.
      if (isDatabaseUnreachable(err)) {
        request.log.warn({ err: err.message, url: request.url }, 'the database cannot be reached: answered 503');
        reply.header('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
        return reply.status(503).send(localized(request, reply, DATABASE_UNAVAILABLE));
      }
      const status = err.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        return reply.status(status).send({ code: 'bad_request', message: err.message } satisfies ApiErrorBody);
      }
      request.log.error({ err }, 'unhandled error');
      return reply.status(500).send(localized(request, reply, { code: 'internal_error', message: MESSAGES.unexpected }));
    });
  },
  { name: 'errors' },
);
