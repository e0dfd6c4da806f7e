import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { maskError, maskSecrets, maskUrl, maskValue, MASK } from './log-masking.js';

/** Headers that carry credentials or signatures: never logged, whatever logs a request's headers. */
const SECRET_HEADERS = [
  'authorization',
  'cookie',
  'set-cookie',
  'stripe-signature',
  'x-telegram-bot-api-secret-token',
  'btcpay-sig',
  'crypto-pay-api-signature',
  'x-api-key',
  'proxy-authorization',
];

/** Body fields that carry secrets, at the top of a logged body or one level down. */
const SECRET_BODY_FIELDS = [
  'code',
  'email',
  'token',
  'accessToken',
  'refreshToken',
  'password',
  'secretKey',
  'webhookSecret',
  'apiKey',
  'shopSecret',
  'secret',
];

const headerPaths = (prefix: string) => SECRET_HEADERS.map((name) => `${prefix}["${name}"]`);

/**
 * pino's `redact` paths: headers and bodies a line logs. None under `req` or `res`: pino serializes those first, and
 * their serializers keep no header or body (the request's below; Fastify's reply serializer keeps the status code),
 * so such paths would only cost every request's two lines a redaction pass (server/bench/redaction.bench.ts).
 */
export const REDACT_PATHS = [...headerPaths('headers'), ...SECRET_BODY_FIELDS.flatMap((field) => [`body.${field}`, `body.*.${field}`])];

/** A built file: hashed assets, icons, robots.txt, the sitemap. Their requests are logged at debug, never at info. */
const STATIC_FILE = /^\/(?:assets\/|[^/?]+\.(?:ico|png|svg|webp|jpg|jpeg|gif|webmanifest|txt|xml|js|mjs|css|map|json|woff2?)(?:\?|$))/i;

export const isStaticFileRequest = (url: string) => STATIC_FILE.test(url);

/** Fastify's request lines (incoming, completed), at debug for built files; an error stays an error. */
class QuietStaticFiles extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (isStaticFileRequest(request.url)) request.log.debug({ req: request }, 'incoming request');
    else super.incomingRequest(request, reply, metadata);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (!error && isStaticFileRequest(request.url)) reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
    else super.requestCompleted(error, request, reply, metadata);
  }
}

/**
 * The app's logger: pino with no secret in any line at any level (docs/monitoring.md, Logs). A request's URL is
 * logged with its tokens masked (`/sub/[redacted]`, secret query values); credential headers and secret body fields
 * are redacted by path; every other logged object and every message has its e-mail addresses, JWTs, payment keys
 * and long random tokens masked last. Each request's lines carry its `reqId` (Fastify's child logger).
 */
export function safeLoggerOptions(level: string, extra: object = {}): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  return {
    logger: {
      level,
      redact: { paths: REDACT_PATHS, censor: MASK },
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: maskUrl(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        }),
        err: serializeError,
      },
      formatters: { log: (object: Record<string, unknown>) => maskValue(object) as Record<string, unknown> },
      hooks: {
        logMethod(args: unknown[], method: (...args: unknown[]) => void) {
          method.apply(
            this,
            args.map((arg) => (typeof arg === 'string' ? maskSecrets(arg) : arg instanceof Error ? maskError(arg) : arg)),
          );
        },
      },
      ...extra,
    },
    logController: new QuietStaticFiles(),
  };
}

/** pino's error serializer, on the error with its message and stack masked. */
function serializeError(err: Error): { [key: string]: unknown; type: string; message: string; stack: string } {
  // `{ err: err.message }` and the like: what is not an error is masked as any value.
  if (!(err instanceof Error)) return maskValue(err) as never;
  const masked = maskError(err);
  const fields = maskValue({ ...masked }) as Record<string, unknown>;
  return { type: masked.name, message: masked.message, stack: masked.stack ?? '', ...fields };
}
