import { emailText } from '../../../mail/messages/index.js';
import { renderRefundEmail } from '../../../mail/refund-email.js';
import type { Locale } from '../../../../../shared/locales.js';
import type { BillingEmailDeps, ComposedEmail, EmailFrame, NoticeOf } from '../billing-email-deps.js';
import type { SubscriptionMetadata } from '../billing.repo.js';
import { boughtPlanName, withPlanNames } from '../bought-plan-name.js';

/** The refunded payment's plan in the customer's language (its order's translated name, where it has one). */
function refundedPlanName(recorded: string | undefined, order: SubscriptionMetadata | undefined, locale: Locale): string | undefined {
  if (!recorded || !order) return recorded;
  return boughtPlanName(order, locale, recorded);
}

/** What a refund tells its customer (once per refunded total): what came back, what it did to their VPN, and when the money arrives. */
export async function composeRefundEmail(
  deps: Pick<BillingEmailDeps, 'billing' | 'plans'>,
  notice: NoticeOf<'refund'>,
  frame: EmailFrame,
): Promise<ComposedEmail> {
  const transaction = await deps.billing.findTransaction(notice.transactionId);
  if (!transaction) return null;
  const subscription = await deps.billing.findSubscription(transaction.subscriptionId);
  const order = subscription && (await withPlanNames(subscription.metadata, deps.plans));
  return {
    userId: transaction.userId,
    render: (to, locale) =>
      renderRefundEmail({
        to,
        ...frame,
        locale,
        planName: refundedPlanName(transaction.metadata.plan_name, order, locale) ?? emailText(locale, 'billing.yourPlan'),
        amountRefunded: notice.amountRefunded,
        amountPaid: transaction.amount,
        currency: transaction.currency,
        full: notice.amountRefunded >= transaction.amount,
        recurring: subscription?.billing === 'recurring',
        claimUrl: transaction.metadata.refund_claim_url ?? null,
      }),
  };
}
