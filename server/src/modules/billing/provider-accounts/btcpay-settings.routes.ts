import type { FastifyInstance } from 'fastify';
import { UpdateCryptoPaymentBody } from '../../../../../shared/billing-schemas.js';
import type { Clock } from '../../../lib/clock.js';
import type { AuditRepo } from '../../audit/index.js';
import { actorOf } from '../../users/index.js';
import type { BtcpaySettingsService } from './btcpay-settings.service.js';
import { requireAccess, typed } from '../../../lib/route-schemas.js';
import { CryptoPaymentSettingsAnswer } from '../../../answers/provider-accounts.js';

/** The admin's BTCPay Server store. The API key and webhook secret are write-only: answers say only whether each is set. */
export async function adminBtcpaySettingsRoutes(app: FastifyInstance, opts: { crypto: BtcpaySettingsService; audit: AuditRepo; clock: Clock }) {
  requireAccess(app, 'admin');
  app.get('/api/admin/payments/crypto', { schema: { response: { 200: CryptoPaymentSettingsAnswer } } }, async () => opts.crypto.getAdminSettings());
  typed(app).put(
    '/api/admin/payments/crypto',
    { schema: { body: UpdateCryptoPaymentBody, response: { 200: CryptoPaymentSettingsAnswer } } },
    async (request) => {
      // Payment keys move the store's money: the staff member proves their passkey again (plugins/staff-passkey.ts).
      await app.requireStepUp(request);
      const body = request.body;
      const saved = await opts.crypto.updateSettings(body, opts.clock());
      const actor = actorOf(request);
      // Which fields changed; the secrets' values never.
      const changed = Object.fromEntries(
        Object.entries(body).map(([key, value]) => [key, key === 'apiKey' || key === 'webhookSecret' ? (value === null ? 'cleared' : 'set') : value]),
      );
      await opts.audit.record({
        actorId: actor.id,
        actorEmail: actor.email,
        action: 'payments.crypto.update',
        targetType: 'payment_provider',
        targetId: 'btcpay',
        details: changed,
        ip: actor.ip ?? null,
        now: opts.clock(),
      });
      return saved;
    },
  );
}
