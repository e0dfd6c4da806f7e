import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TelegramInitDataBody, TelegramSignInBody } from '../../../../shared/telegram-auth.js';
import { TelegramLinkedAnswer, TelegramSignedInAnswer } from '../../answers/telegram-auth.js';
import { typed } from '../../lib/route-schemas.js';
import { toMe } from '../../plugins/auth.js';
import type { RateLimits } from '../../plugins/rate-limit.js';
import type { MiniApp } from './mini-app.service.js';

const byIp = (request: FastifyRequest) => request.ip;

/**
 * The Mini App (the dashboard opened inside Telegram): signing in with Telegram's launch data, limited per address
 * as sign-in codes are, and linking the Telegram user to the signed-in customer.
 */
export async function telegramAuthRoutes(app: FastifyInstance, opts: { miniApp: MiniApp; limits: RateLimits }) {
  typed(app).post(
    '/api/auth/telegram',
    {
      preValidation: app.limiter('telegram-sign-in-ip', opts.limits.verifyPerIp, byIp),
      schema: { body: TelegramSignInBody, response: { 200: TelegramSignedInAnswer } },
    },
    async (request, reply) => {
      const meta = { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null };
      const { user, tokens } = await opts.miniApp.signIn(request.body.initData, meta, request.body.signUp === true);
      app.setSessionCookies(reply, tokens);
      return { user: toMe(user) };
    },
  );

  typed(app).post(
    '/api/me/telegram',
    { preValidation: app.requireUser, schema: { body: TelegramInitDataBody, response: { 200: TelegramLinkedAnswer } } },
    async (request) => opts.miniApp.link(request.auth!.user, request.body.initData, request.ip ?? null),
  );
}
