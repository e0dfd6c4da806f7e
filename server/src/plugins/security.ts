import helmet from 'helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors.js';
import { ACCESS_COOKIE, REFRESH_COOKIE } from './auth.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The origin a browser would send for this request's own site, as the client reached it. */
function ownOrigin(request: FastifyRequest): string | undefined {
  const host = request.headers.host;
  return host ? `${request.protocol}://${host}` : undefined;
}

function originOf(request: FastifyRequest): string | undefined {
  const { origin, referer } = request.headers;
  if (origin && origin !== 'null') return origin;
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/** `GET /sub/<token>…` from a VPN client, not a browser asking for the page (subscription.service.ts). */
function isConfigFetch(request: FastifyRequest): boolean {
  return request.url.startsWith('/sub/') && !/\btext\/html\b/i.test(request.headers.accept ?? '');
}

/**
 * Security headers (helmet, with a CSP the app passes) and CSRF protection for cookie sessions:
 * a state-changing request must come from our own origin when it carries an Origin, and must carry
 * one when it would be authenticated by cookies (SameSite cookies are the first line; this is the second).
 */
export const securityPlugin = fp(
  async (app: FastifyInstance, opts: { publicUrl: URL }) => {
    const https = opts.publicUrl.protocol === 'https:';
    // helmet's middleware made once (the Fastify wrapper builds it again, CSP parsing included, on every request).
    const securityHeaders = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          ...(https ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      hsts: https ? { maxAge: 15552000, includeSubDomains: true } : false,
      crossOriginEmbedderPolicy: false,
    });
    app.addHook('onRequest', (request, reply, done) => {
      // A VPN client fetching its configuration has no page to protect: nosniff is all it needs, and the
      // clients that poll it (and the server) skip a dozen headers. A browser asking for the /sub page gets them all.
      if (isConfigFetch(request)) {
        reply.raw.setHeader('X-Content-Type-Options', 'nosniff');
        return done();
      }
      securityHeaders(request.raw, reply.raw, (err?: unknown) => done(err instanceof Error ? err : undefined));
    });

    const allowed = opts.publicUrl.origin;
    app.addHook('onRequest', async (request) => {
      if (SAFE_METHODS.has(request.method)) return;
      const origin = originOf(request);
      const usesCookies = !request.headers.authorization && Boolean(request.cookies[ACCESS_COOKIE] || request.cookies[REFRESH_COOKIE]);
      if (origin === undefined) {
        if (usesCookies) throw new AppError(403, 'csrf_failed', 'This request did not come from this site.');
        return;
      }
      if (origin !== allowed && origin !== ownOrigin(request)) {
        throw new AppError(403, 'csrf_failed', 'This request did not come from this site.');
      }
    });
  },
  { name: 'security', dependencies: ['auth'] },
);
