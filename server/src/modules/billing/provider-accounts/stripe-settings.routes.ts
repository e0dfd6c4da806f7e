import type { FastifyInstance } from 'fastify';
import { UpdateCardPaymentBody } from '../../../../../shared/billing-schemas.js';
import type { Clock } from '../../../lib/clock.js';
import type { AuditRepo } from '../../audit/index.js';
import { actorOf } from '../../users/index.js';
import type { StripeSettingsService } from './stripe-settings.service.js';
import { requireAccess, typed } from '../../../lib/route-schemas.js';
import { CardPaymentSettingsAnswer } from '../../../answers/provider-accounts.js';

/** The admin's Stripe keys. The secrets are write-only: answers say only whether each is set. */
export async function adminStripeSettingsRoutes(app: FastifyInstance, opts: { card: StripeSettingsService; audit: AuditRepo; clock: Clock }) {
  requireAccess(app, 'admin');
  app.get('/api/admin/payments/card', { schema: { response: { 200: CardPaymentSettingsAnswer } } }, async () => opts.card.getAdminSettings());
  typed(app).put('/api/admin/payments/card', { schema: { body: UpdateCardPaymentBody, response: { 200: CardPaymentSettingsAnswer } } }, async (request) => {
    // Payment keys move the store's money: the staff member proves their passkey again (plugins/staff-passkey.ts).
    await app.requireStepUp(request);
    const body = request.body;
    const saved = await opts.card.updateSettings(body, opts.clock());
    const actor = actorOf(request);
    // Which fields changed, never their values.
    const changed = Object.fromEntries(Object.entries(body).map(([key, value]) => [key, key === 'enabled' ? value : value === null ? 'cleared' : 'set']));
    await opts.audit.record({
      actorId: actor.id,
      actorEmail: actor.email,
      action: 'payments.card.update',
      targetType: 'payment_provider',
      targetId: 'stripe',
      details: changed,
      ip: actor.ip ?? null,
      now: opts.clock(),
    });
    return saved;
  });
}
