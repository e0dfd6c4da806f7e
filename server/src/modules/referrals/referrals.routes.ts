import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AdminReferralsQuery, REFERRAL_COOKIE, REFERRAL_COOKIE_DAYS, UpdateReferralSettingsBody } from '../../../../shared/referrals.js';
import { actorOf } from '../users/index.js';
import type { ReferralsService } from './referrals.service.js';
import { AdminReferralsPageAnswer, MyReferralsAnswer, ReferralInvitationAnswer, ReferralSettingsAnswer } from '../../answers/referrals.js';
import { NoContent, requireAccess, typed } from '../../lib/route-schemas.js';

type WithId = FastifyRequest<{ Params: { id: string } }>;

/**
 * `GET /r/<code>`: a referral link. The code is kept for 30 days in a first-party cookie (read when the visitor
 * signs up) and the visitor goes on to the home page; an unknown code (or the programme off) just goes on.
 */
export async function referralLinkRoutes(app: FastifyInstance, opts: { referrals: ReferralsService; secureCookies: boolean }) {
  app.get('/r/:code', async (request: FastifyRequest<{ Params: { code: string } }>, reply) => {
    const { code } = request.params;
    if (await opts.referrals.referrerOf(code)) {
      reply.setCookie(REFERRAL_COOKIE, code.toUpperCase(), {
        path: '/',
        maxAge: REFERRAL_COOKIE_DAYS * 86_400,
        httpOnly: true,
        sameSite: 'lax',
        secure: opts.secureCookies,
      });
    }
    return reply.header('cache-control', 'no-store').redirect('/', 302);
  });
}

/** The customer's referral link, what it brought and the credit it earned. */
export async function myReferralsRoutes(app: FastifyInstance, opts: { referrals: ReferralsService }) {
  app.get('/api/referrals/me', { preValidation: app.requireUser, schema: { response: { 200: MyReferralsAnswer } } }, async (request) =>
    opts.referrals.mine(request.auth!.user.id),
  );
  // Public: the landing page and the checkout ask whether to say "Invited by a friend" (never cached: it is the visitor's).
  app.get('/api/referrals/invitation', { schema: { response: { 200: ReferralInvitationAnswer } } }, async (request, reply) => {
    const auth = await app.loadAuth(request);
    reply.header('cache-control', 'private, no-store');
    return opts.referrals.invitationFor({ userId: auth?.user.id ?? null, code: request.cookies[REFERRAL_COOKIE] });
  });
}

/** The admin's referrals: the programme's settings, every referral (held ones with their reason), top referrers, release and void. */
export async function adminReferralsRoutes(app: FastifyInstance, opts: { referrals: ReferralsService }) {
  const { referrals } = opts;
  requireAccess(app, 'admin');
  const noContent = { schema: { response: { 204: NoContent } } };
  typed(app).get('/api/admin/referrals', { schema: { querystring: AdminReferralsQuery, response: { 200: AdminReferralsPageAnswer } } }, async (request) =>
    referrals.adminPage(request.query),
  );
  app.get('/api/admin/referrals/settings', { schema: { response: { 200: ReferralSettingsAnswer } } }, async () => referrals.getSettings());
  typed(app).put(
    '/api/admin/referrals/settings',
    { schema: { body: UpdateReferralSettingsBody, response: { 200: ReferralSettingsAnswer } } },
    async (request) => referrals.updateSettings(actorOf(request), request.body),
  );
  app.post('/api/admin/referrals/:id/release', noContent, async (request: WithId, reply) => {
    await referrals.release(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
  app.post('/api/admin/referrals/:id/void', noContent, async (request: WithId, reply) => {
    await referrals.void(actorOf(request), request.params.id);
    return reply.status(204).send();
  });
}
