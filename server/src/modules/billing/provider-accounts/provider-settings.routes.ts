import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { UpdateCryptopayPaymentBody, UpdateYookassaPaymentBody } from '../../../../../shared/billing-schemas.js';
import type { Clock } from '../../../lib/clock.js';
import type { AuditRepo } from '../../audit/index.js';
import { actorOf } from '../../users/index.js';
import type { CryptopaySettingsService } from './cryptopay-settings.service.js';
import type { YookassaSettingsService } from './yookassa-settings.service.js';
import { requireAccess } from '../../../lib/route-schemas.js';
import { CryptopayPaymentSettingsAnswer, YookassaPaymentSettingsAnswer } from '../../../answers/provider-accounts.js';

interface SettingsService<Body, Settings> {
  getAdminSettings(): Promise<Settings>;
  updateSettings(body: Body, now: Date): Promise<Settings>;
}

/** GET and PUT of one provider's settings; the audit log names the fields changed, and of a secret only whether it was set or cleared. */
function settingsRoutes<Schema extends z.ZodType, Settings>(
  app: FastifyInstance,
  options: {
    provider: string;
    schema: Schema;
    answer: z.ZodType<Settings>;
    service: SettingsService<z.infer<Schema>, Settings>;
    secret: string;
    audit: AuditRepo;
    clock: Clock;
  },
) {
  const path = `/api/admin/payments/${options.provider}`;
  // Widened for Fastify's route types (a generic schema does not resolve there): `answer` and `service` agree on Settings above.
  const response = { 200: options.answer as z.ZodType };
  app.get(path, { schema: { response } }, async () => options.service.getAdminSettings());
  app.put(path, { schema: { body: options.schema, response } }, async (request) => {
    // Payment keys move the store's money: the staff member proves their passkey again (plugins/staff-passkey.ts).
    await app.requireStepUp(request);
    const body = request.body as Record<string, unknown>;
    const saved = await options.service.updateSettings(body as z.infer<Schema>, options.clock());
    const actor = actorOf(request);
    const changed = Object.fromEntries(
      Object.entries(body).map(([key, value]) => [key, key === options.secret ? (value === null ? 'cleared' : 'set') : value]),
    );
    await options.audit.record({
      actorId: actor.id,
      actorEmail: actor.email,
      action: `payments.${options.provider}.update`,
      targetType: 'payment_provider',
      targetId: options.provider,
      details: changed,
      ip: actor.ip ?? null,
      now: options.clock(),
    });
    return saved;
  });
}

/** The admin's YooKassa shop and Crypto Pay app. Their secrets are write-only: answers say only whether each is set. */
export async function adminProviderSettingsRoutes(
  app: FastifyInstance,
  opts: { yookassa: YookassaSettingsService; cryptopay: CryptopaySettingsService; audit: AuditRepo; clock: Clock },
) {
  requireAccess(app, 'admin');
  settingsRoutes(app, {
    provider: 'yookassa',
    schema: UpdateYookassaPaymentBody,
    answer: YookassaPaymentSettingsAnswer,
    service: opts.yookassa,
    secret: 'secretKey',
    audit: opts.audit,
    clock: opts.clock,
  });
  settingsRoutes(app, {
    provider: 'cryptopay',
    schema: UpdateCryptopayPaymentBody,
    answer: CryptopayPaymentSettingsAnswer,
    service: opts.cryptopay,
    secret: 'apiToken',
    audit: opts.audit,
    clock: opts.clock,
  });
}
