import { z } from 'zod';
import type { Mailer } from '../../../mail/mailer.js';
import { emailText } from '../../../mail/messages/index.js';
import { renderRefundEmail } from '../../../mail/refund-email.js';
import { DEFAULT_LOCALE } from '../../../../../shared/locales.js';
import type { BillingRepo, SubscriptionMetadata } from '../billing.repo.js';
import { boughtPlanName, withPlanNames } from '../bought-plan-name.js';
import type { PlansRepo } from '../../plans/index.js';
import type { Locale } from '../../../../../shared/locales.js';
import type { SettingsService } from '../../settings/index.js';
import type { UsersRepo } from '../../users/index.js';
import { PermanentJobError, type JobHandler } from '../../../jobs/worker.js';

const Payload = z.object({ transactionId: z.string().min(1), amountRefunded: z.number().int().positive() });

/** The refunded payment's plan in the customer's language (its order's translated name, where it has one). */
function refundedPlanName(recorded: string | undefined, order: SubscriptionMetadata | undefined, locale: Locale): string | undefined {
  if (!recorded || !order) return recorded;
  return boughtPlanName(order, locale, recorded);
}

/** E-mails the customer once per refunded total (the job's dedupe key); retried while the mail server does not answer. */
export function createSendRefundNoticeHandler(deps: {
  billing: BillingRepo;
  plans: PlansRepo;
  users: UsersRepo;
  settings: SettingsService;
  mailer: Mailer;
  publicUrl: URL;
}): JobHandler {
  return async (payload) => {
    const parsed = Payload.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad refund notice payload');
    const transaction = await deps.billing.findTransaction(parsed.data.transactionId);
    if (!transaction) return;
    const user = await deps.users.findById(transaction.userId);
    if (!user) return;
    const { brandName } = await deps.settings.getAppSettings();
    const subscription = await deps.billing.findSubscription(transaction.subscriptionId);
    // The customer's stored language (read with the address above): the e-mail's texts, amounts and links.
    const locale = user.locale ?? DEFAULT_LOCALE;
    await deps.mailer.send(
      renderRefundEmail({
        to: user.email,
        brandName,
        publicUrl: deps.publicUrl,
        locale,
        planName:
          refundedPlanName(transaction.metadata.plan_name, subscription && (await withPlanNames(subscription.metadata, deps.plans)), locale) ??
          emailText(locale, 'billing.yourPlan'),
        amountRefunded: parsed.data.amountRefunded,
        amountPaid: transaction.amount,
        currency: transaction.currency,
        full: parsed.data.amountRefunded >= transaction.amount,
        recurring: subscription?.billing === 'recurring',
        claimUrl: transaction.metadata.refund_claim_url ?? null,
      }),
    );
  };
}
