import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { DEFAULT_LOCALE, localizedPath } from '../../../../../shared/locales.js';
import { formatMoney } from '../../../../../shared/money.js';
import { WALLET_MESSAGES, type TopUpBody, type TopUpStarted } from '../../../../../shared/wallet.js';
import type { Db } from '../../../db/knex.js';
import { AppError, validationFailed } from '../../../errors.js';
import type { JobsRepo } from '../../../jobs/jobs.repo.js';
import { addSeconds, type Clock } from '../../../lib/clock.js';
import { emailText } from '../../../mail/messages/index.js';
import type { AccountsRepo } from '../../accounts/index.js';
import type { SettingsService } from '../../settings/index.js';
import type { UserProfile } from '../../users/index.js';
import type { BillingRepo, SubscriptionMetadata } from '../billing.repo.js';
import type { PaymentDrivers } from '../provider-accounts/payment-drivers.js';
import { CHECKOUT_SESSION_TTL_SECONDS } from './checkout-timing.js';
import { enqueueFollowUp } from './follow-up.js';
import { assertEmailIfNeeded } from './start-checkout.js';

/** What a top-up order keeps: no plan, no account, no days; its "plan" is the words for the money. */
function topUpMetadata(amount: number, currency: string): SubscriptionMetadata {
  return {
    plan_id: '',
    plan_name: emailText('en', 'checkout.topUpProduct'),
    plan_names: {
      ru: emailText('ru', 'checkout.topUpProduct'),
      fa: emailText('fa', 'checkout.topUpProduct'),
      'zh-CN': emailText('zh-CN', 'checkout.topUpProduct'),
    },
    price: amount,
    kind: 'top_up',
    days: 0,
    data_limit: 0,
    locations: '',
    currency,
  };
}

/**
 * Topping up the wallet: an order of money rather than a plan, paid at any provider that takes the store's currency.
 * Its rows (a subscription of kind `top_up` with no account, and its pending transaction) and their follow-up job are
 * written before the provider is asked, as for a plan; once paid, payment-confirmation.ts puts the money in the wallet.
 * The customer comes back to their wallet page.
 */
export function createTopUpCheckout(deps: {
  db: Db;
  billing: BillingRepo;
  payments: PaymentDrivers;
  accounts: AccountsRepo;
  settings: SettingsService;
  jobs: JobsRepo;
  clock: Clock;
  log: FastifyBaseLogger;
  publicUrl: URL;
}) {
  const walletPage = (user: UserProfile) => new URL(localizedPath(user.locale ?? DEFAULT_LOCALE, '/wallet'), deps.publicUrl).href;

  return {
    async start(user: UserProfile, body: TopUpBody): Promise<TopUpStarted> {
      const { currency, walletTopUps: limits } = await deps.settings.getAppSettings();
      if (!limits.enabled) throw new AppError(409, 'top_ups_off', WALLET_MESSAGES.topUpsOff);
      if (body.amount < limits.min || body.amount > limits.max) {
        const range = `${formatMoney(limits.min, currency, 'en-US')} to ${formatMoney(limits.max, currency, 'en-US')}`;
        throw validationFailed({ amount: `Top up ${range} at a time` }, WALLET_MESSAGES.topUpLimits);
      }
      const { driver, providerId, providerAccountId } = await deps.payments.forCheckout(body.method, currency);
      assertEmailIfNeeded(driver, user);
      const subscriptionId = randomUUID();
      const transactionId = randomUUID();
      const metadata = topUpMetadata(body.amount, currency);
      await deps.db.transaction(async (trx) => {
        const now = deps.clock();
        await deps.billing.insertCheckout(
          {
            subscription: {
              id: subscriptionId,
              userId: user.id,
              vpnAccountId: null,
              providerId,
              providerAccountId,
              planId: null,
              billing: 'one_off',
              metadata,
            },
            transaction: { id: transactionId, amount: body.amount, currency },
          },
          now,
          trx,
        );
        await enqueueFollowUp(deps, trx, transactionId, now);
      });
      const locale = user.locale ?? DEFAULT_LOCALE;
      let checkout;
      try {
        checkout = await driver.startCheckout({
          orderId: transactionId,
          amount: body.amount,
          currency,
          productName: emailText(locale, 'checkout.topUpProduct'),
          description: emailText(locale, 'checkout.topUpDescription'),
          customerEmail: user.email,
          customerRef: user.id,
          successUrl: `${walletPage(user)}?session_id={CHECKOUT_ID}`,
          cancelUrl: `${walletPage(user)}?checkout=cancelled&order=${encodeURIComponent(transactionId)}`,
          locale,
          expiresAt: addSeconds(new Date(), CHECKOUT_SESSION_TTL_SECONDS),
          metadata: { subscription_id: subscriptionId, user_id: user.id, kind: 'top_up' },
        });
      } catch (err) {
        deps.log.error({ err, transactionId }, 'payment: the provider refused to create the top-up checkout');
        await deps.db.transaction((trx) => deps.billing.deleteCheckout(subscriptionId, trx));
        throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.checkoutFailed);
      }
      const now = deps.clock();
      await deps.billing.setProviderTransactionId(transactionId, checkout.checkoutId, now);
      await deps.accounts.insertLog({
        accountId: null,
        userId: user.id,
        step: 'checkout_started',
        status: 'success',
        details: { transactionId, checkoutId: checkout.checkoutId, amount: body.amount, kind: 'top_up', method: body.method },
        now,
      });
      return { url: checkout.url, sessionId: checkout.checkoutId };
    },
  };
}

export type TopUpCheckout = ReturnType<typeof createTopUpCheckout>;
