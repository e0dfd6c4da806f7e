import type { FastifyInstance, FastifyRequest } from 'fastify';
import { PayLinkBody } from '../../../../shared/telegram-auth.js';
import { PayLinkSignedInAnswer } from '../../answers/telegram-auth.js';
import { typed } from '../../lib/route-schemas.js';
import { toMe } from '../../plugins/auth.js';
import type { RateLimits } from '../../plugins/rate-limit.js';
import type { TelegramPayLinks } from './telegram-pay-links.service.js';

const byIp = (request: FastifyRequest) => request.ip;

/** A payment link from the bot, opened on the site: signs its customer in (limited per address as sign-in codes are). */
export async function telegramPayLinkRoutes(app: FastifyInstance, opts: { payLinks: TelegramPayLinks; limits: RateLimits }) {
  typed(app).post(
    '/api/auth/pay-link',
    {
      preValidation: app.limiter('pay-link-ip', opts.limits.verifyPerIp, byIp),
      schema: { body: PayLinkBody, response: { 200: PayLinkSignedInAnswer } },
    },
    async (request, reply) => {
      const meta = { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null };
      const { user, tokens, target } = await opts.payLinks.signIn(request.body.token, meta);
      app.setSessionCookies(reply, tokens);
      return { user: toMe(user), ...target };
    },
  );
}
