import { DEFAULT_LOCALE } from '../../../../shared/locales.js';
import { PermanentJobError, type JobHandler } from '../../jobs/worker.js';
import { Notice, type BillingEmailDeps, type ComposedEmail, type EmailFrame } from './billing-email-deps.js';
import {
  composeDataUsageEmail,
  composeDeviceLimitEmail,
  composeLinkMovedEmail,
  composePlanEndingEmail,
  composeWalletRenewalShortEmail,
} from './compose-account-emails.js';
import { composePaymentEmail } from './compose-payment-emails.js';
import { composeSubscriptionEmail } from './compose-subscription-emails.js';
import { composeRefundEmail } from './refunds/compose-refund-email.js';

export interface SendBillingEmailDeps extends BillingEmailDeps {
  /**
   * Whether the customer takes this notice by e-mail: false when they chose another channel that reaches them now
   * (their Telegram: the app gives it, as billing does not know the bot).
   */
  emailWanted(userId: string): Promise<boolean>;
}

/**
 * Sends one billing e-mail (billing-notices.ts queues them, once per event). It reads the records when
 * it runs; a record gone meanwhile (a deleted user) sends nothing, nor does a customer who takes their notices
 * another way. Retried while the mail server does not answer.
 */
export function createSendBillingEmailHandler(deps: SendBillingEmailDeps): JobHandler {
  const composeNotice = createNoticeComposer(deps);
  return async (payload) => {
    const mail = await composeNotice(payload);
    if (!mail) return;
    // One read gives the address and the language the customer reads (their e-mails follow it).
    const user = await deps.users.findById(mail.userId);
    // A customer who came through the Telegram bot may have no address: the bot tells them (telegram-notices.ts).
    if (!user?.email) return;
    if (!(await deps.emailWanted(user.id))) return;
    await deps.mailer.send(mail.render(user.email, user.locale ?? DEFAULT_LOCALE));
  };
}

/**
 * What a queued notice tells its customer, composed from the records as they are now and rendered in the language
 * asked for: the e-mail's subject and text serve the other channels (the Telegram bot) too. Null: nothing to tell.
 */
export function createNoticeComposer(deps: BillingEmailDeps) {
  return async (payload: unknown): Promise<ComposedEmail> => {
    const parsed = Notice.safeParse(payload);
    if (!parsed.success) throw new PermanentJobError('Bad billing notice payload');
    const { brandName } = await deps.settings.getAppSettings();
    return compose(deps, parsed.data, { brandName, publicUrl: deps.publicUrl });
  };
}

export type NoticeComposer = ReturnType<typeof createNoticeComposer>;

/** The e-mail a notice gives, composed from the records as they are now (compose-*-emails.ts); null when there is nothing to tell. */
async function compose(deps: BillingEmailDeps, notice: Notice, frame: EmailFrame): Promise<ComposedEmail> {
  switch (notice.kind) {
    case 'receipt':
    case 'payment_failed':
    case 'partial_payment':
      return composePaymentEmail(deps, notice, frame);
    case 'account_paused':
    case 'subscription_canceled':
    case 'subscription_resumed':
    case 'renewal_reminder':
      return composeSubscriptionEmail(deps, notice, frame);
    case 'plan_ending':
      return composePlanEndingEmail(deps, notice, frame);
    case 'wallet_renewal_short':
      return composeWalletRenewalShortEmail(deps, notice, frame);
    case 'subscription_link_moved':
      return composeLinkMovedEmail(deps, notice, frame);
    case 'data_usage':
      return composeDataUsageEmail(deps, notice, frame);
    case 'refund':
      return composeRefundEmail(deps, notice, frame);
    case 'device_limit':
      return composeDeviceLimitEmail(deps, notice, frame);
  }
}
