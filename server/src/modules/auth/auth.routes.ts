import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AddEmailBody, ConfirmEmailBody, EmailSchema, LogoutBody, MeSchema, RefreshBody, RequestOtpBody, VerifyOtpBody } from '../../../../shared/auth.js';
import { localeFromAcceptLanguage } from '../../lib/locale.js';
import { REFERRAL_COOKIE } from '../../../../shared/referrals.js';
import { REFRESH_COOKIE, toMe } from '../../plugins/auth.js';
import type { RateLimits } from '../../plugins/rate-limit.js';
import type { AuthService, RequestMeta } from './auth.service.js';
import { typed } from '../../lib/route-schemas.js';
import { OtpSentAnswer, RefreshedAnswer, SessionAnswer, VerifiedAnswer } from '../../answers/auth.js';
import type { SettingsService } from '../settings/index.js';
import { byNetwork, signInLimitRules } from './sign-in-limit-rules.js';

const requestMeta = (request: FastifyRequest): RequestMeta => ({
  ip: request.ip ?? null,
  userAgent: request.headers['user-agent'] ?? null,
});

/** Rate-limit key for "this address": the normalised e-mail when the body has a valid one. */
const emailKey = (request: FastifyRequest): string => {
  const email = EmailSchema.safeParse((request.body as { email?: unknown } | undefined)?.email);
  return email.success ? email.data : '-';
};

export async function authRoutes(
  app: FastifyInstance,
  opts: { auth: AuthService; limits: RateLimits; settings: Pick<SettingsService, 'getAppSettings'>; secureCookies?: boolean },
) {
  const { auth, limits } = opts;
  const byIp = (request: FastifyRequest) => request.ip;
  // Codes are limited per e-mail address and, loosely, per network (docs/rate-limits.md); the admin sets both.
  const signIn = signInLimitRules(limits, async () => (await opts.settings.getAppSettings()).signInLimits);
  const codeLimits = [app.limiter('otp-network', signIn.otpPerNetwork, byNetwork), app.limiter('otp-email', signIn.otpPerEmail, emailKey)];
  const checkLimits = [app.limiter('verify-network', signIn.verifyPerNetwork, byNetwork), app.limiter('verify-email', limits.verifyPerEmail, emailKey)];

  typed(app).post(
    '/api/auth/otp',
    {
      preValidation: codeLimits,
      schema: { body: RequestOtpBody, response: { 200: OtpSentAnswer } },
    },
    async (request) => {
      const { email, locale } = request.body;
      await auth.requestCode(email, requestMeta(request), locale ?? localeFromAcceptLanguage(request.headers['accept-language']));
      return { sent: true as const };
    },
  );

  // A customer without an address (they came through the Telegram bot) adds one: a code to it, then the code back.
  typed(app).post(
    '/api/me/email',
    {
      preValidation: [app.requireUser, ...codeLimits],
      schema: { body: AddEmailBody, response: { 200: OtpSentAnswer } },
    },
    async (request) => {
      const { email, locale } = request.body;
      await auth.requestEmailCode(request.auth!.user, email, requestMeta(request), locale);
      return { sent: true as const };
    },
  );

  typed(app).post(
    '/api/me/email/confirm',
    {
      preValidation: [app.requireUser, ...checkLimits],
      schema: { body: ConfirmEmailBody, response: { 200: MeSchema } },
    },
    async (request) => toMe(await auth.confirmEmail(request.auth!.user, request.body, requestMeta(request))),
  );

  typed(app).post(
    '/api/auth/verify',
    {
      preValidation: checkLimits,
      schema: { body: VerifyOtpBody, response: { 200: VerifiedAnswer } },
    },
    async (request, reply) => {
      const body = request.body;
      const referralCode = body.referralCode ?? request.cookies[REFERRAL_COOKIE];
      const { user, tokens } = await auth.verifyCode({ ...body, referralCode }, requestMeta(request));
      // The link's code has done its work (a sign-up is attributed once): cleared with the attributes it was set with.
      if (request.cookies[REFERRAL_COOKIE])
        reply.clearCookie(REFERRAL_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: opts.secureCookies ?? false });
      if (body.client === 'desktop') {
        return { user: toMe(user), accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn };
      }
      app.setSessionCookies(reply, tokens);
      return { user: toMe(user) };
    },
  );

  typed(app).post(
    '/api/auth/refresh',
    { preValidation: app.limiter('refresh-ip', limits.refreshPerIp, byIp), schema: { body: RefreshBody, response: { 200: RefreshedAnswer } } },
    async (request, reply) => {
      const body = request.body;
      const fromCookie = body.refreshToken === undefined;
      try {
        const tokens = await auth.refresh(body.refreshToken ?? request.cookies[REFRESH_COOKIE]);
        if (!fromCookie) return { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken, expiresIn: tokens.expiresIn };
        app.setSessionCookies(reply, tokens);
        return { expiresIn: tokens.expiresIn };
      } catch (err) {
        if (fromCookie) app.clearSessionCookies(reply);
        throw err;
      }
    },
  );

  /**
   * The web app's start-up check: 200 `{ user }` or `{ user: null }`, never 401, so a signed-out
   * visitor's browser logs no failed request. A lapsed access cookie is renewed from the refresh cookie.
   */
  app.get(
    '/api/auth/session',
    { preValidation: app.limiter('refresh-ip', limits.refreshPerIp, byIp), schema: { response: { 200: SessionAnswer } } },
    async (request, reply) => {
      const current = await app.loadAuth(request);
      if (current) return { user: toMe(current.user) };
      const refreshToken = request.cookies[REFRESH_COOKIE];
      if (!refreshToken) return { user: null };
      const resumed = await auth.resumeSession(refreshToken);
      if (!resumed) {
        app.clearSessionCookies(reply);
        return { user: null };
      }
      app.setSessionCookies(reply, resumed.tokens);
      return { user: toMe(resumed.user) };
    },
  );

  typed(app).post('/api/auth/logout', { schema: { body: LogoutBody } }, async (request, reply) => {
    const body = request.body;
    const authContext = await app.loadAuth(request);
    const refreshToken = body.refreshToken ?? request.cookies[REFRESH_COOKIE];
    const current = authContext
      ? { userId: authContext.user.id, sessionId: authContext.sessionId }
      : refreshToken
        ? await auth.findSessionByRefreshToken(refreshToken)
        : undefined;
    await auth.logout(body.scope, current, requestMeta(request));
    if (body.scope !== 'others') app.clearSessionCookies(reply);
    return reply.status(204).send();
  });
}
