import cookie from '@fastify/cookie';
import jwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isStaff, type Me } from '../../../shared/auth.js';
import { ACCESS_TOKEN_TTL_SECONDS } from '../../../shared/constants.js';
import { forbidden, roleForbidden, unauthenticated } from '../errors.js';
import type { Clock } from '../lib/clock.js';
import { LruMap } from '../lib/lru-map.js';
import { allows } from '../lib/staff-policy.js';
import type { SessionsRepo } from '../modules/auth/sessions.repo.js';
import type { IssuedTokens } from '../modules/auth/auth.service.js';
import type { UserProfile } from '../modules/users/users.repo.js';

export const ACCESS_COOKIE = 'vpn_access';
export const REFRESH_COOKIE = 'vpn_refresh';
const REFRESH_COOKIE_PATH = '/api/auth';
/**
 * Access tokens whose signature was checked, kept until the token's own `exp`: every authenticated
 * request of a signed-in customer repeats the same token, and its HMAC was a tenth of a request's work.
 * Kept by the token itself (fast-jwt's own cache keys a SHA digest of it, which cost 6–8 % of
 * `/api/accounts`); an entry is reused only for exactly the same string. Sign-out and revocation are the
 * session check's, which still runs on every request.
 */
const VERIFIED_TOKENS_KEPT = 4096;

interface VerifiedToken {
  claims: AccessClaims;
  /** The token's `exp`, ms (fast-jwt checks it against the system time, and so does a reuse). */
  expiresAtMs: number;
}

export interface AuthContext {
  user: UserProfile;
  sessionId: string;
  /** How the request proved who it is: web cookies or a desktop bearer token. */
  via: 'cookie' | 'bearer';
}

interface AccessClaims {
  sub: string;
  sid: string;
  exp: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** A route's preValidation hook (before its input is checked): 401 unless signed in. */
    requireUser(request: FastifyRequest): Promise<void>;
    /**
     * A route's preValidation hook (before its input is checked): 401 unless signed in, 403 unless staff whose
     * role the staff policy (lib/staff-policy.ts) lets call this route with this body.
     */
    requireAdmin(request: FastifyRequest): Promise<void>;
    /** Resolves the caller's session if there is a valid one; never throws. */
    loadAuth(request: FastifyRequest): Promise<AuthContext | null>;
    setSessionCookies(reply: FastifyReply, tokens: IssuedTokens): void;
    clearSessionCookies(reply: FastifyReply): void;
  }
}

export function toMe(user: UserProfile): Me {
  return { id: user.id, email: user.email, role: user.role, trialUsed: user.trialUsed, locale: user.locale };
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header && /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1] : undefined;
}

/**
 * Sessions: a short access JWT (cookie for the web, bearer for the desktop app) naming a session
 * row; every authenticated request checks that the session is live, so sign-out takes effect at once.
 */
export const authPlugin = fp(
  async (app: FastifyInstance, opts: { jwtSecret: string; secureCookies: boolean; sessions: SessionsRepo; clock: Clock }) => {
    await app.register(cookie);
    await app.register(jwt, {
      secret: opts.jwtSecret,
      sign: { expiresIn: ACCESS_TOKEN_TTL_SECONDS },
    });
    const verifiedTokens = new LruMap<string, VerifiedToken>(VERIFIED_TOKENS_KEPT);

    /** The token's claims if its signature and expiry hold; throws otherwise. */
    function verifyAccessToken(token: string): AccessClaims {
      const kept = verifiedTokens.get(token);
      if (kept && kept.expiresAtMs > Date.now()) return kept.claims;
      const claims = app.jwt.verify<AccessClaims>(token);
      verifiedTokens.set(token, { claims, expiresAtMs: claims.exp * 1000 });
      return claims;
    }

    app.decorateRequest('auth', null);

    async function loadAuth(request: FastifyRequest): Promise<AuthContext | null> {
      if (request.auth) return request.auth;
      const bearer = bearerToken(request);
      const token = bearer ?? request.cookies[ACCESS_COOKIE];
      if (!token) return null;
      let claims: AccessClaims;
      try {
        claims = verifyAccessToken(token);
      } catch {
        return null;
      }
      const session = await opts.sessions.findSessionWithUser(claims.sid);
      if (!session || session.user.id !== claims.sub || session.revokedAt || session.expiresAt <= opts.clock()) return null;
      request.auth = { user: session.user, sessionId: session.sessionId, via: bearer ? 'bearer' : 'cookie' };
      return request.auth;
    }

    app.decorate('loadAuth', loadAuth);
    app.decorate('requireUser', async (request: FastifyRequest) => {
      if (!(await loadAuth(request))) throw unauthenticated();
    });
    app.decorate('requireAdmin', async (request: FastifyRequest) => {
      const auth = await loadAuth(request);
      if (!auth) throw unauthenticated();
      if (!isStaff(auth.user.role)) throw forbidden();
      if (!allows(auth.user.role, request.method, request.routeOptions.url ?? '', request.body)) throw roleForbidden();
    });

    const base = { httpOnly: true, secure: opts.secureCookies } as const;
    app.decorate('setSessionCookies', (reply: FastifyReply, tokens: IssuedTokens) => {
      reply.setCookie(ACCESS_COOKIE, tokens.accessToken, { ...base, sameSite: 'lax', path: '/', maxAge: tokens.expiresIn });
      reply.setCookie(REFRESH_COOKIE, tokens.refreshToken, {
        ...base,
        sameSite: 'strict',
        path: REFRESH_COOKIE_PATH,
        expires: tokens.refreshExpiresAt,
      });
    });
    app.decorate('clearSessionCookies', (reply: FastifyReply) => {
      reply.clearCookie(ACCESS_COOKIE, { ...base, sameSite: 'lax', path: '/' });
      reply.clearCookie(REFRESH_COOKIE, { ...base, sameSite: 'strict', path: REFRESH_COOKIE_PATH });
    });
  },
  { name: 'auth' },
);
