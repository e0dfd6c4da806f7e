import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { ACCOUNT_MESSAGES } from '../../../../shared/accounts.js';
import { BILLING_MESSAGES, CURRENCY, type CheckoutStarted, type CheckoutStatus } from '../../../../shared/billing.js';
import type { CheckoutBody } from '../../../../shared/billing-schemas.js';
import { formatBytes, formatDuration, formatLocations } from '../../../../shared/plan-format.js';
import type { Db } from '../../db/knex.js';
import { AppError, notFound } from '../../errors.js';
import type { JobsRepo } from '../../jobs/jobs.repo.js';
import { addSeconds, type Clock } from '../../lib/clock.js';
import { generateSubToken, generateUsername } from '../accounts/account-values.js';
import type { AccountsRepo } from '../accounts/accounts.repo.js';
import type { AccountsService } from '../accounts/accounts.service.js';
import type { Provisioner } from '../accounts/provisioning.js';
import type { PlanRecord, PlansRepo } from '../plans/plans.repo.js';
import { isPurchasable } from '../plans/plans.service.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UserProfile } from '../users/users.repo.js';
import type { BillingRepo, CheckoutKind } from './billing.repo.js';
import type { CardKeys, CardSettingsService } from './card-settings.service.js';
import type { PaymentConfirmation } from './payment-confirmation.js';
import type { StripeGateway } from './stripe-gateway.js';

export const CHECK_CHECKOUT = 'check_checkout';
/** An unpaid Checkout Session is closed by Stripe after this long (Stripe's minimum is 30 minutes). */
export const CHECKOUT_SESSION_TTL_SECONDS = 3600;
/** When the follow-up first asks Stripe about a checkout nobody has heard back from. */
export const FIRST_FOLLOW_UP_SECONDS = 600;

/** "30 days · 50 GB · All locations", the line under the plan's name on Stripe's page. */
const describePlan = (plan: PlanRecord) =>
  `${formatDuration(plan.days)} · ${formatBytes(plan.dataLimitBytes)} · ${formatLocations(plan.locations)}`;

/**
 * Starting a card payment (Stripe Checkout) and answering the return pages. The price, currency and
 * product come from the plan on the server; the browser only names a plan or an account.
 */
export function createCheckoutService(deps: {
  db: Db;
  billing: BillingRepo;
  accounts: AccountsRepo;
  accountsService: AccountsService;
  plans: PlansRepo;
  settings: SettingsService;
  card: CardSettingsService;
  provisioner: Provisioner;
  gateway: StripeGateway;
  confirmation: PaymentConfirmation;
  jobs: JobsRepo;
  clock: Clock;
  log: FastifyBaseLogger;
  publicUrl: URL;
}) {
  const { billing, clock, log } = deps;

  async function readyKeys(): Promise<CardKeys & { secretKey: string }> {
    const keys = await deps.card.resolveKeys();
    if (!keys.enabled || !keys.publishableKey) throw new AppError(503, 'payment_not_configured', BILLING_MESSAGES.notConfigured);
    if (!keys.secretKey) throw new AppError(503, 'payment_not_configured', BILLING_MESSAGES.stripeNotInitialized);
    return { ...keys, secretKey: keys.secretKey };
  }

  /** The plan to charge for, and the account a renewal extends. */
  async function resolveOrder(user: UserProfile, body: CheckoutBody): Promise<{ plan: PlanRecord; kind: CheckoutKind; accountId: string | null }> {
    const { trialPlanId } = await deps.settings.getAppSettings();
    if ('planId' in body) {
      const plan = await deps.plans.findById(body.planId);
      if (!plan || plan.status !== 'active') throw notFound(BILLING_MESSAGES.planNotFound);
      if (!isPurchasable(plan, trialPlanId)) throw new AppError(400, 'not_purchasable', 'This plan is free: claim it from your dashboard instead.');
      return { plan, kind: 'purchase', accountId: null };
    }
    const account = await deps.accounts.findForUser(body.accountId, user.id);
    if (!account) throw notFound('Account not found');
    if (account.status === 'suspended') throw new AppError(409, 'account_suspended', 'This account is still waiting for its first payment.');
    const plan = account.planId ? await deps.plans.findById(account.planId) : undefined;
    if (!plan || !isPurchasable(plan, trialPlanId)) throw new AppError(409, 'not_renewable', "This account's plan is no longer on sale, so it cannot be renewed. Buy a new plan instead.");
    return { plan, kind: 'renewal', accountId: account.id };
  }

  return {
    async startCheckout(user: UserProfile, body: CheckoutBody): Promise<CheckoutStarted> {
      const keys = await readyKeys();
      const { plan, kind, accountId: renewedAccountId } = await resolveOrder(user, body);
      if ((await deps.provisioner.candidateServers(plan.locations)).length === 0) {
        throw new AppError(503, 'service_unavailable', ACCOUNT_MESSAGES.serviceUnavailable);
      }

      const subscriptionId = randomUUID();
      const transactionId = randomUUID();
      const accountId = renewedAccountId ?? randomUUID();
      await deps.db.transaction(async (trx) => {
        const now = clock();
        if (kind === 'purchase') {
          await deps.accounts.insertPending({ id: accountId, userId: user.id, planId: plan.id, username: generateUsername(), subToken: generateSubToken(), trialUserId: null }, now, trx);
        }
        await billing.insertCheckout({
          subscription: {
            id: subscriptionId, userId: user.id, vpnAccountId: accountId, providerId: keys.providerId, planId: plan.id,
            metadata: { plan_id: plan.id, plan_name: plan.name, price: plan.price, kind, days: plan.days, data_limit: plan.dataLimitBytes, locations: plan.locations },
          },
          transaction: { id: transactionId, amount: plan.price, currency: CURRENCY },
        }, now, trx);
      });

      let session;
      try {
        session = await deps.gateway.createCheckoutSession(keys.secretKey, {
          mode: 'payment',
          line_items: [{
            quantity: 1,
            price_data: { currency: CURRENCY, unit_amount: plan.price, product_data: { name: kind === 'renewal' ? `${plan.name} (renewal)` : plan.name, description: describePlan(plan) } },
          }],
          customer_email: user.email,
          client_reference_id: user.id,
          success_url: `${new URL('/thank-you', deps.publicUrl).href}?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: new URL('/dashboard', deps.publicUrl).href,
          expires_at: Math.floor(Date.now() / 1000) + CHECKOUT_SESSION_TTL_SECONDS,
          metadata: { transaction_id: transactionId, subscription_id: subscriptionId, vpn_account_id: accountId, user_id: user.id, plan_id: plan.id, kind },
        }, `checkout:${transactionId}`);
      } catch (err) {
        log.error({ err, transactionId, planId: plan.id }, 'payment: Stripe refused to create the Checkout Session');
        await deps.db.transaction(async (trx) => {
          await billing.deleteCheckout(subscriptionId, trx);
          if (kind === 'purchase') await deps.accounts.removeIfSuspended(accountId, trx);
        });
        throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.checkoutFailed);
      }
      if (!session.url) throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.checkoutFailed);

      const now = clock();
      await billing.setProviderTransactionId(transactionId, session.id, now);
      // If neither the webhook nor the customer comes back, ask Stripe later (and clean up an abandoned checkout).
      await deps.jobs.enqueue({ type: CHECK_CHECKOUT, payload: { transactionId }, runAt: addSeconds(now, FIRST_FOLLOW_UP_SECONDS), dedupeKey: `${CHECK_CHECKOUT}:${transactionId}`, maxAttempts: 500 }, now);
      await deps.accounts.insertLog({ accountId, userId: user.id, step: 'checkout_started', status: 'success', details: { transactionId, sessionId: session.id, planId: plan.id, amount: plan.price, kind }, now });
      return { url: session.url, sessionId: session.id, subscriptionId };
    },

    /**
     * The return pages' poll. While the payment is pending it also asks Stripe, which covers a webhook
     * that is late or was never configured.
     */
    async getCheckoutStatus(user: UserProfile, sessionId: string): Promise<CheckoutStatus> {
      let transaction = await billing.findTransactionBySessionForUser(sessionId, user.id);
      if (!transaction) throw notFound('Payment session not found');
      if (transaction.status === 'pending') {
        try {
          const keys = await deps.card.resolveKeys();
          if (keys.secretKey) await deps.confirmation.apply(await deps.gateway.retrieveCheckoutSession(keys.secretKey, sessionId));
        } catch (err) {
          log.warn({ err, sessionId }, 'payment: could not ask Stripe about a pending checkout; the webhook or the next poll will tell');
        }
        transaction = (await billing.findTransaction(transaction.id))!;
      }
      const subscription = (await billing.findSubscription(transaction.subscriptionId))!;
      const ready = transaction.status === 'succeeded' && subscription.metadata.fulfilled_at && subscription.vpnAccountId;
      const account = ready ? await deps.accountsService.findAccount(user.id, subscription.vpnAccountId!) : undefined;
      return {
        status: transaction.status,
        subscriptionId: subscription.id,
        renewal: subscription.metadata.kind === 'renewal',
        ...(account ? { account } : {}),
        ...(transaction.status === 'failed' ? { error: transaction.metadata.error ?? BILLING_MESSAGES.paymentFailed } : {}),
      };
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
