import type { FastifyBaseLogger } from 'fastify';
import { ACCOUNT_MESSAGES } from '../../../../../shared/accounts.js';
import { BILLING_MESSAGES, type CheckoutStarted, type CheckoutStatus } from '../../../../../shared/billing.js';
import { isProviderMethod, type CheckoutBody } from '../../../../../shared/billing-schemas.js';
import { WALLET_MESSAGES } from '../../../../../shared/wallet.js';
import type { CheckoutQuote, CheckoutQuoteBody } from '../../../../../shared/promo-codes.js';
import { DEFAULT_LOCALE, localizedPath } from '../../../../../shared/locales.js';
import type { Db } from '../../../db/knex.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { AppError, notFound } from '../../../errors.js';
import type { JobsRepo } from '../../../jobs/jobs.repo.js';
import { addSeconds, type Clock } from '../../../lib/clock.js';
import { crashPoint } from '../../../lib/crash-points.js';
import { PaymentProviderError, type CheckoutOrder, type PaymentDriver, type StartedCheckout } from '../../../payments/payment-driver.js';
import type { AccountsRepo } from '../../accounts/accounts.repo.js';
import type { AccountsService } from '../../accounts/accounts.service.js';
import type { Provisioner } from '../../accounts/provisioning.js';
import type { PlanRecord, PlansRepo } from '../../plans/plans.repo.js';
import { isPurchasable } from '../../plans/plans.service.js';
import type { ServersService } from '../../servers/servers.service.js';
import type { SettingsService } from '../../settings/settings.service.js';
import type { UserProfile } from '../../users/users.repo.js';
import type { BillingRepo, CheckoutKind } from '../billing.repo.js';
import type { PaymentConfirmation } from './payment-confirmation.js';
import type { PaymentCustomers } from '../provider-accounts/payment-customers.js';
import type { PaymentDrivers } from '../provider-accounts/payment-drivers.js';
import { recurringPriceSpec } from '../recurring/recurring-catalog.js';
import type { AppliedPromo, PromoCodesService } from '../../promo-codes/promo-codes.service.js';
import { creditFor, RENEWAL_NOTE, type CreditSpending } from '../../referrals/credit-spending.js';
import { checkoutProduct } from './checkout-product.js';
import { newOrderIds, orderDiscountOf, type OrderRows } from './order-rows.js';

/** The wallet does not cover an order: what is missing, for the dialog to offer a top-up of it. */
const insufficientBalance = (needed: number) => new AppError(409, 'insufficient_balance', WALLET_MESSAGES.insufficient, { needed });

import { CHECK_CHECKOUT, CHECKOUT_SESSION_TTL_SECONDS, FIRST_FOLLOW_UP_SECONDS } from './checkout-timing.js';

export { CHECK_CHECKOUT, CHECKOUT_SESSION_TTL_SECONDS, FIRST_FOLLOW_UP_SECONDS } from './checkout-timing.js';


/**
 * Starting a payment (by card, or in crypto) and answering the return pages. The price, currency and
 * product come from the plan on the server; the browser only names a plan or an account, and the method.
 */
/** The discount an order is made with: a typed code, or (`referral`) the one the customer was referred with. */
interface ChosenPromo {
  promoCode: string;
  referral?: boolean;
}

export function createCheckoutService(deps: {
  db: Db;
  billing: BillingRepo;
  accounts: AccountsRepo;
  accountsService: AccountsService;
  plans: PlansRepo;
  settings: SettingsService;
  payments: PaymentDrivers;
  provisioner: Provisioner;
  servers: ServersService;
  confirmation: PaymentConfirmation;
  customers: PaymentCustomers;
  promos: PromoCodesService;
  /** The referral discount code of a customer who was referred with one and has not paid yet (null otherwise). */
  referralDiscount?: (userId: string) => Promise<string | null>;
  /** The customer's referral credit, spent on their one-off orders. */
  credit?: CreditSpending;
  /** The extra days a customer referred with them gets on their first order paid once (0 for anyone else). */
  referralBonusDays?: (userId: string) => Promise<number>;
  orders: OrderRows;
  jobs: JobsRepo;
  clock: Clock;
  log: FastifyBaseLogger;
  publicUrl: URL;
}) {
  const { billing, clock, log } = deps;
  /** A page of the site in the user's language: `/thank-you`, `/ru/thank-you`, … */
  const sitePage = (user: UserProfile, path: string) => new URL(localizedPath(user.locale ?? DEFAULT_LOCALE, path), deps.publicUrl).href;

  /**
   * No charge without capacity: some server that covers the plan answers right now (the trial's rule,
   * asked before the customer pays rather than after).
   */
  async function assertCanProvision(plan: PlanRecord): Promise<void> {
    const candidates = await deps.provisioner.candidateServers(plan.locations);
    const answers = candidates.map((server) => deps.servers.driverFor(server).listServices());
    const reachable = answers.length > 0 && (await Promise.any(answers).then(() => true, () => false));
    if (!reachable) {
      log.warn({ planId: plan.id, servers: candidates.length }, 'checkout refused: no server that covers the plan answers');
      throw new AppError(503, 'service_unavailable', ACCOUNT_MESSAGES.serviceUnavailable);
    }
  }

  /** The plan to charge for, and the account a renewal extends. */
  async function resolveOrder(user: UserProfile, body: { planId: string } | { accountId: string }): Promise<{ plan: PlanRecord; kind: CheckoutKind; accountId: string | null }> {
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
    // A plan that renews is not paid by hand as well; but one renewed here whose card was declined may be (its
    // next try finds the period paid and stops: store-renewals.ts).
    const renewing = await billing.renewingSubscriptionOf(account.id);
    if (renewing && !(renewing.metadata.renewed_by === 'store' && renewing.status === 'past_due')) throw new AppError(409, 'already_renews', BILLING_MESSAGES.alreadyRenews);
    const plan = account.planId ? await deps.plans.findById(account.planId) : undefined;
    if (!plan || !isPurchasable(plan, trialPlanId)) throw new AppError(409, 'not_renewable', "This account's plan is no longer on sale, so it cannot be renewed. Buy a new plan instead.");
    return { plan, kind: 'renewal', accountId: account.id };
  }

  /**
   * A purchase of a recurring plan subscribes the user's provider customer to the plan's price (both
   * made when missing); null for a one-off payment. Asked before anything is written: a provider that
   * does not answer leaves nothing behind.
   */
  async function recurringTerms(driver: PaymentDriver, user: UserProfile, plan: PlanRecord, kind: CheckoutKind, currency: string): Promise<CheckoutOrder['recurring'] | null> {
    const spec = recurringPriceSpec(plan, currency);
    // Crypto is paid once: a recurring plan bought in crypto runs its period and is renewed by hand.
    if (kind !== 'purchase' || !spec || driver.capabilities.recurring !== 'provider_subscriptions') return null;
    try {
      const customer = await deps.customers.ensure(user, driver);
      const priceRef = await driver.ensureRecurringPrice(spec);
      return { customerRef: customer.customerRef, priceRef };
    } catch (err) {
      if (!(err instanceof PaymentProviderError)) throw err;
      log.error({ err, planId: plan.id, userId: user.id }, 'payment: the provider refused the customer or the plan price');
      throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.checkoutFailed);
    }
  }

  /** The provider's hosted page for the order; if the provider refuses, the pending rows go away again. */
  async function openCheckout(driver: PaymentDriver, order: {
    user: UserProfile; plan: PlanRecord; kind: CheckoutKind; transactionId: string; subscriptionId: string; accountId: string; currency: string;
    recurring: CheckoutOrder['recurring'] | null; promo: AppliedPromo | null; creditSpent: number; bonusDays: number; saveMethod: boolean;
  }): Promise<StartedCheckout> {
    const { user, plan, kind, transactionId, subscriptionId, accountId, currency, recurring, promo, creditSpent, bonusDays, saveMethod } = order;
    try {
      const locale = user.locale ?? DEFAULT_LOCALE;
      return await driver.startCheckout({
        orderId: transactionId, amount: (promo?.total ?? plan.price) - creditSpent, currency,
        ...(promo ? { discount: orderDiscountOf(promo) } : {}),
        ...(creditSpent > 0 ? { credit: creditSpent } : {}),
        // The customer reads the plan in their language on the provider's page.
        // With a referral's extra days, the duration the provider's page names is the one bought (a subscription's
        // page names its price's interval: the days come after).
        ...checkoutProduct(bonusDays > 0 && !recurring ? { ...plan, days: plan.days + bonusDays } : plan, kind, locale),
        customerEmail: user.email, customerRef: user.id,
        // The customer comes back to the site in the language they read (their stored one).
        successUrl: `${sitePage(user, '/thank-you')}?session_id={CHECKOUT_ID}`,
        // Our own order id (providers do not fill in theirs here): the dashboard closes that checkout.
        cancelUrl: `${sitePage(user, '/dashboard')}?checkout=cancelled&order=${encodeURIComponent(transactionId)}`,
        locale,
        expiresAt: addSeconds(new Date(), CHECKOUT_SESSION_TTL_SECONDS),
        metadata: {
          subscription_id: subscriptionId, vpn_account_id: accountId, user_id: user.id, plan_id: plan.id, kind,
          ...(promo ? { promo_code: promo.code } : {}), ...(creditSpent > 0 ? { referral_credit: String(creditSpent) } : {}),
        },
        ...(recurring ? { recurring } : {}),
        ...(saveMethod ? { saveMethod } : {}),
      });
    } catch (err) {
      // The follow-up job stays: it finds no transaction and ends.
      log.error({ err, transactionId, planId: plan.id }, 'payment: the provider refused to create the checkout');
      await deps.db.transaction(async (trx) => {
        // The credit it spent comes back (written before the rows go: the movement names the order).
        if (creditSpent > 0) await deps.credit?.restore((await billing.findTransaction(transactionId, trx))!, clock(), trx);
        await billing.deleteCheckout(subscriptionId, trx);
        if (kind === 'purchase') await deps.accounts.removeIfSuspended(accountId, trx);
      });
      throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.checkoutFailed);
    }
  }

  /** The customer's referral credit spent on a one-off order of `total`, in the order's transaction (what it spent). */
  const spendCredit = (trx: Db, user: UserProfile, order: { currency: string; total: number; transactionId: string; leaveCharge: boolean; kind: CheckoutKind }) => {
    const { kind, ...spent } = order;
    return deps.credit ? deps.credit.spend(trx, { userId: user.id, ...spent, ...(kind === 'renewal' ? { note: RENEWAL_NOTE } : {}) }, clock()) : Promise.resolve(0);
  };

  const bonusDaysOf = async (user: UserProfile) => (await deps.referralBonusDays?.(user.id)) ?? 0;

  /** What the customer's available credit would pay of a one-off order of `total` now (nothing is spent). */
  const creditOf = async (user: UserProfile, currency: string, total: number) =>
    (deps.credit ? creditFor(total, await deps.credit.available(user.id, currency, clock())) : 0);

  /**
   * A promo code, or referral credit, that leaves nothing to pay: the order is written as paid, with the code's use and
   * the credit spent, in one transaction (order-rows.ts). The customer goes to the thank-you page, which follows it as
   * it follows a payment.
   */
  async function startFreeOrder(user: UserProfile, order: {
    plan: PlanRecord; kind: CheckoutKind; renewedAccountId: string | null; currency: string; promo: ChosenPromo | null; bonusDays: number;
    /** Paid from the wallet, as the customer chose: a balance spent meanwhile (another order, in another tab) is theirs to top up. */
    fromWallet?: boolean;
    /** The order's unique name, when it must be placed once (an automatic renewal of one period). */
    checkoutId?: string;
  }): Promise<CheckoutStarted> {
    const { plan, kind, currency, bonusDays } = order;
    const ids = newOrderIds(order.renewedAccountId);
    let checkoutId = '';
    let creditSpent = 0;
    await deps.db.transaction(async (trx) => {
      const write = async (promo: AppliedPromo | null) => {
        const total = promo?.total ?? plan.price;
        creditSpent = total > 0 ? await spendCredit(trx, user, { currency, total, transactionId: ids.transactionId, leaveCharge: false, kind }) : 0;
        if (total - creditSpent !== 0 && order.fromWallet) throw insufficientBalance(total - creditSpent);
        // The code's terms cannot change, but its plan's price (or the customer's credit) could have since it was quoted.
        if (total - creditSpent !== 0) throw new AppError(409, 'price_changed', BILLING_MESSAGES.priceChanged);
        checkoutId = await deps.orders.placeFree(trx, { user, plan, kind, currency, ids, promo, creditSpent, bonusDays, ...(order.checkoutId ? { checkoutId: order.checkoutId } : {}) });
      };
      if (order.promo) await deps.promos.redeem(trx, { ...order.promo, userId: user.id, plan, currency, transactionId: ids.transactionId, subscriptionId: ids.subscriptionId }, write);
      else await write(null);
    });
    await deps.accounts.insertLog({
      accountId: ids.accountId, userId: user.id, step: 'checkout_started', status: 'success',
      details: {
        transactionId: ids.transactionId, checkoutId, planId: plan.id, amount: 0, kind,
        ...(order.promo ? { promoCode: order.promo.promoCode } : {}), ...(creditSpent > 0 ? { creditSpent } : {}),
      },
      now: clock(),
    });
    return { url: `${sitePage(user, '/thank-you')}?session_id=${encodeURIComponent(checkoutId)}`, sessionId: checkoutId, subscriptionId: ids.subscriptionId };
  }

  /**
   * The discount of the order: the code the customer typed, else the one they were referred with (their first payment's
   * discount, while it can be used: a referral discount that cannot is simply not given, never refused).
   */
  async function choosePromo(user: UserProfile, plan: PlanRecord, typed: string | undefined): Promise<ChosenPromo | null> {
    if (typed) return { promoCode: typed };
    const referral = await deps.referralDiscount?.(user.id);
    if (!referral) return null;
    try {
      await deps.promos.quote(user.id, plan, referral, { referral: true });
      return { promoCode: referral, referral: true };
    } catch (err) {
      if (err instanceof AppError && err.code === 'promo_invalid') return null;
      throw err;
    }
  }

  /**
   * `method: "wallet"`: the whole order paid from the customer's balance (a plan's price after a promo code), written
   * as paid with what it spent, in one transaction; 409 `insufficient_balance` with what is missing when the balance
   * does not cover it. No provider is asked: the thank-you page follows it as it follows a payment.
   */
  async function startWalletOrder(user: UserProfile, body: CheckoutBody, currency: string): Promise<CheckoutStarted> {
    const { plan, kind, accountId: renewedAccountId } = await resolveOrder(user, body);
    const chosen = await choosePromo(user, plan, body.promoCode);
    const total = chosen ? (await deps.promos.quote(user.id, plan, chosen.promoCode, { referral: chosen.referral })).total : plan.price;
    const available = deps.credit ? await deps.credit.available(user.id, currency, clock()) : 0;
    if (available < total) throw insufficientBalance(total - available);
    await assertCanProvision(plan);
    return startFreeOrder(user, { plan, kind, renewedAccountId, currency, promo: chosen, bonusDays: await bonusDaysOf(user), fromWallet: true });
  }

  return {
    assertCanProvision,

    /**
     * An account set to renew from the balance, renewed from it for the period after `periodEnd`: once, whoever
     * asks (the order is named by the account and the period). `renewed: false` with what is missing when the
     * balance does not cover the plan's price.
     */
    async renewFromWallet(user: UserProfile, accountId: string, periodEnd: Date): Promise<{ renewed: true; orderId: string } | { renewed: false; needed: number }> {
      const { currency } = await deps.settings.getAppSettings();
      const { plan, kind } = await resolveOrder(user, { accountId });
      const available = deps.credit ? await deps.credit.available(user.id, currency, clock()) : 0;
      if (available < plan.price) return { renewed: false, needed: plan.price - available };
      await assertCanProvision(plan);
      const checkoutId = `wallet_renewal:${accountId}:${periodEnd.toISOString()}`;
      try {
        await startFreeOrder(user, { plan, kind, renewedAccountId: accountId, currency, promo: null, bonusDays: 0, fromWallet: true, checkoutId });
      } catch (err) {
        // Renewed for this period already (by another runner, or before a restart): nothing more is taken.
        if (isUniqueViolation(err)) return { renewed: true, orderId: checkoutId };
        if (err instanceof AppError && err.code === 'insufficient_balance') return { renewed: false, needed: err.details.needed ?? plan.price };
        throw err;
      }
      return { renewed: true, orderId: checkoutId };
    },

    /**
     * What the plan costs this customer with the code, or with their referral discount (no use is taken), and what
     * their referral credit would pay of a one-off payment of it: the payment dialog's before and after.
     */
    async quote(user: UserProfile, body: CheckoutQuoteBody): Promise<CheckoutQuote> {
      const { plan } = await resolveOrder(user, { planId: body.planId });
      const promo = await choosePromo(user, plan, body.promoCode);
      const quoted = await deps.promos.quote(user.id, plan, promo?.promoCode, { referral: promo?.referral });
      return { ...quoted, credit: await creditOf(user, quoted.currency, quoted.total), bonusDays: await bonusDaysOf(user) };
    },

    async startCheckout(user: UserProfile, body: CheckoutBody): Promise<CheckoutStarted> {
      const method = body.method ?? 'card';
      // The store's currency now: the price is that many of its minor units, and the payment keeps it.
      const { currency } = await deps.settings.getAppSettings();
      if (!isProviderMethod(method)) return startWalletOrder(user, body, currency);
      const { driver, providerId, providerAccountId } = await deps.payments.forCheckout(method, currency);
      const { plan, kind, accountId: renewedAccountId } = await resolveOrder(user, body);
      // A recurring plan renews: at a provider with subscriptions of its own (Stripe), or here, charging the method its
      // first payment saves (YooKassa); with any other provider it is taken once and renewed by hand.
      const subscribes = kind === 'purchase' && driver.capabilities.recurring !== 'none' && recurringPriceSpec(plan, currency) !== null;
      const renewedHere = subscribes && driver.capabilities.recurring === 'saved_methods';
      // A purchase's first payment may carry the customer's referral discount when no code is typed.
      const chosen = await choosePromo(user, plan, body.promoCode);
      // Referral credit pays one-off orders, and the first payment of a plan renewed here; a provider subscription's
      // goes to its renewals (credit-push.ts). A referral's extra days come with a first order (a provider
      // subscription's once its first period is paid: recurring-payments.ts).
      const oneOff = !subscribes;
      const spendsCredit = oneOff || renewedHere;
      const bonusDays = await bonusDaysOf(user);
      // A code or credit that leaves nothing to pay once needs no payment provider (asked here without taking a use).
      if (oneOff) {
        const total = chosen ? (await deps.promos.quote(user.id, plan, chosen.promoCode, { referral: chosen.referral })).total : plan.price;
        if (total - (await creditOf(user, currency, total)) === 0) {
          await assertCanProvision(plan);
          return startFreeOrder(user, { plan, kind, renewedAccountId, currency, promo: chosen, bonusDays });
        }
      }
      await assertCanProvision(plan);
      const recurring = await recurringTerms(driver, user, plan, kind, currency);

      const ids = newOrderIds(renewedAccountId);
      const { subscriptionId, transactionId, accountId } = ids;
      let promo: AppliedPromo | null = null;
      let creditSpent = 0;
      // The pending rows and their follow-up job in one transaction (with the code's use, when one was typed, and the
      // credit spent): whatever happens after this, the job asks the provider about it (or closes it if the checkout was
      // never created, which gives the use and the credit back).
      await deps.db.transaction(async (trx) => {
        const write = async (applied: AppliedPromo | null) => {
          const now = clock();
          const total = applied?.total ?? plan.price;
          creditSpent = spendsCredit ? await spendCredit(trx, user, { currency, total, transactionId, leaveCharge: true, kind }) : 0;
          await deps.orders.insert(trx, now, {
            user, plan, kind, currency, ids, amount: total - creditSpent, providerId, providerAccountId, billing: subscribes ? 'recurring' : 'one_off', promo: applied, creditSpent, bonusDays,
            ...(renewedHere ? { renewedHere } : {}),
          });
          await deps.jobs.enqueue({ type: CHECK_CHECKOUT, payload: { transactionId }, runAt: addSeconds(now, FIRST_FOLLOW_UP_SECONDS), dedupeKey: `${CHECK_CHECKOUT}:${transactionId}`, maxAttempts: 500 }, now, trx);
        };
        if (chosen) promo = await deps.promos.redeem(trx, { ...chosen, userId: user.id, plan, currency, transactionId, subscriptionId }, write);
        else await write(null);
      });

      await crashPoint('checkout:after-order');
      const checkout = await openCheckout(driver, { user, plan, kind, transactionId, subscriptionId, accountId, currency, recurring, promo, creditSpent, bonusDays, saveMethod: renewedHere });
      const now = clock();
      let amount = ((promo as AppliedPromo | null)?.total ?? plan.price) - creditSpent;
      // (With credit the provider is told the whole discount as one amount: its total is ours.)
      if (promo && creditSpent === 0 && checkout.amountTotal !== undefined && checkout.amountTotal !== amount) {
        // The provider rounded the code's discount otherwise: its figure is what the customer pays (before anyone can).
        log.warn({ transactionId, ours: amount, provider: checkout.amountTotal }, 'payment: the provider computed the discounted total otherwise; keeping its figure');
        amount = checkout.amountTotal;
        await deps.promos.keepProviderTotal(transactionId, amount);
      }
      await billing.setProviderTransactionId(transactionId, checkout.checkoutId, now);
      await deps.accounts.insertLog({
        accountId, userId: user.id, step: 'checkout_started', status: 'success',
        details: {
          transactionId, checkoutId: checkout.checkoutId, planId: plan.id, amount, kind,
          ...(promo ? { promoCode: (promo as AppliedPromo).code } : {}), ...(creditSpent > 0 ? { creditSpent } : {}),
        },
        now,
      });
      return { url: checkout.url, sessionId: checkout.checkoutId, subscriptionId };
    },

    /**
     * Before an account is deleted: its open renewal checkouts are closed at the provider first, so
     * nobody can pay for an account that is gone. One that was paid meanwhile is applied, and the
     * deletion is refused so the customer decides again; a provider that does not answer refuses it too.
     */
    async closeOpenRenewals(accountId: string): Promise<void> {
      const pending = await billing.listPendingForAccount(accountId);
      for (const transaction of pending) {
        if (!transaction.providerTransactionId) {
          await deps.confirmation.markAbandoned(transaction);
          continue;
        }
        const driver = await deps.payments.forTransaction(transaction);
        if (!driver) throw new AppError(503, 'payment_not_configured', BILLING_MESSAGES.openRenewalUnreachable);
        let outcome;
        try {
          outcome = await deps.confirmation.apply(await driver.expireCheckout(transaction.providerTransactionId));
        } catch (err) {
          log.warn({ err, transactionId: transaction.id }, 'payment: could not close an open renewal before deleting its account');
          throw new AppError(503, 'payment_provider_error', BILLING_MESSAGES.openRenewalUnreachable);
        }
        if (outcome === 'paid') throw new AppError(409, 'renewal_paid', BILLING_MESSAGES.renewalJustPaid);
      }
    },

    /**
     * The customer came back with Cancel: the checkout is closed at the provider and its pending rows go,
     * as when it expires (a purchase's waiting account with them), unless it was paid meanwhile: then the
     * payment is applied. Someone else's order is a 404.
     */
    async cancelCheckout(user: UserProfile, orderId: string): Promise<{ status: CheckoutStatus['status'] }> {
      const transaction = await billing.findTransaction(orderId);
      if (!transaction || transaction.userId !== user.id) throw notFound('Payment session not found');
      if (transaction.status === 'pending') {
        const driver = await deps.payments.forTransaction(transaction);
        if (transaction.providerTransactionId && driver) {
          const checkoutId = transaction.providerTransactionId;
          await deps.confirmation.recordCancelRequest(transaction);
          let state;
          try {
            state = await driver.expireCheckout(checkoutId);
          } catch {
            // Already closed (a second tab's cancel got there first) or paid: what it is now decides.
            try {
              state = await driver.readCheckout(checkoutId);
            } catch (err) {
              log.warn({ err, transactionId: transaction.id }, 'payment: could not close a cancelled checkout; it expires by itself');
              throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.checkStatusFailedDashboard);
            }
          }
          if (state.outcome === 'expired') await deps.confirmation.markCancelled(transaction);
          else await deps.confirmation.apply(state);
        } else {
          await deps.confirmation.markCancelled(transaction);
        }
      }
      return { status: (await billing.findTransaction(transaction.id))!.status };
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
          const driver = await deps.payments.forTransaction(transaction);
          const checkoutId = transaction.providerTransactionId;
          if (driver && checkoutId) await deps.confirmation.apply(await driver.readCheckout(checkoutId));
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
        currency: transaction.currency,
        ...(subscription.metadata.kind === 'top_up' ? { topUp: true as const } : {}),
        ...(account ? { account } : {}),
        ...(transaction.status === 'failed' ? { error: transaction.metadata.error ?? BILLING_MESSAGES.paymentFailed } : {}),
        ...(transaction.status === 'cancelled' ? { error: transaction.metadata.error ?? BILLING_MESSAGES.paymentCancelled } : {}),
        ...(transaction.status === 'needs_review'
          ? { error: transaction.metadata.review?.reason === 'partial_payment' ? BILLING_MESSAGES.partialPaymentExpired : BILLING_MESSAGES.paymentNeedsReview }
          : {}),
        ...(transaction.status === 'pending' && transaction.metadata.crypto ? { crypto: transaction.metadata.crypto } : {}),
      };
    },
  };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
