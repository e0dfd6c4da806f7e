import { BILLING_MESSAGES, type CheckoutStarted } from '../../../../../shared/billing.js';
import { isProviderMethod, type CheckoutBody } from '../../../../../shared/billing-schemas.js';
import { DEFAULT_LOCALE } from '../../../../../shared/locales.js';
import type { CheckoutQuote, CheckoutQuoteBody } from '../../../../../shared/promo-codes.js';
import { MESSAGES } from '../../../../../shared/errors.js';
import { AppError } from '../../../errors.js';
import { addSeconds } from '../../../lib/clock.js';
import { crashPoint } from '../../../lib/crash-points.js';
import { PaymentProviderError, type CheckoutOrder, type PaymentDriver, type StartedCheckout } from '../../../payments/payment-driver.js';
import type { PlanRecord } from '../../plans/index.js';
import type { AppliedPromo } from '../../promo-codes/index.js';
import type { UserProfile } from '../../users/index.js';
import type { CheckoutKind } from '../billing.repo.js';
import { recurringPriceSpec } from '../recurring/recurring-catalog.js';
import { sitePage, type CheckoutDeps } from './checkout-deps.js';
import { checkoutProduct } from './checkout-product.js';
import { CHECKOUT_SESSION_TTL_SECONDS } from './checkout-timing.js';
import { enqueueFollowUp } from './follow-up.js';
import { startFreeOrder, startWalletOrder } from './free-orders.js';
import { newOrderIds, orderDiscountOf } from './order-rows.js';
import { assertCanProvision, bonusDaysOf, choosePromo, creditOf, orderTotal, quotedTotal, resolveOrder, spendCredit } from './order-terms.js';

/**
 * Starting a payment (by card, in crypto, with YooKassa or Crypto Pay) and quoting it. The price, currency and
 * product come from the plan on the server; the browser only names a plan or an account, and the method.
 */

/**
 * A purchase of a recurring plan subscribes the user's provider customer to the plan's price (both
 * made when missing); null for a one-off payment. Asked before anything is written: a provider that
 * does not answer leaves nothing behind.
 */
async function recurringTerms(
  deps: CheckoutDeps,
  driver: PaymentDriver,
  user: UserProfile,
  plan: PlanRecord,
  kind: CheckoutKind,
  currency: string,
): Promise<CheckoutOrder['recurring'] | null> {
  const spec = recurringPriceSpec(plan, currency);
  // Crypto is paid once: a recurring plan bought in crypto runs its period and is renewed by hand.
  if (kind !== 'purchase' || !spec || driver.capabilities.recurring !== 'provider_subscriptions') return null;
  try {
    const customer = await deps.customers.ensure(user, driver);
    const priceRef = await driver.ensureRecurringPrice(spec);
    return { customerRef: customer.customerRef, priceRef };
  } catch (err) {
    if (!(err instanceof PaymentProviderError)) throw err;
    deps.log.error({ err, planId: plan.id, userId: user.id }, 'payment: the provider refused the customer or the plan price');
    throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.checkoutFailed);
  }
}

/** The provider's hosted page for the order; if the provider refuses, the pending rows go away again. */
export async function openCheckout(
  deps: CheckoutDeps,
  driver: PaymentDriver,
  order: {
    user: UserProfile;
    plan: PlanRecord;
    kind: CheckoutKind;
    transactionId: string;
    subscriptionId: string;
    accountId: string;
    currency: string;
    recurring: CheckoutOrder['recurring'] | null;
    promo: AppliedPromo | null;
    creditSpent: number;
    bonusDays: number;
    saveMethod: boolean;
    /** What it charges when it is not the plan's price (less the code and the credit): a price in Telegram Stars. */
    amount?: number;
    /** What the provider's page names when it is not the plan (an add-on). */
    product?: { productName: string; description: string };
  },
): Promise<StartedCheckout> {
  const { user, plan, kind, transactionId, subscriptionId, accountId, currency, recurring, promo, creditSpent, bonusDays, saveMethod } = order;
  try {
    const locale = user.locale ?? DEFAULT_LOCALE;
    return await driver.startCheckout({
      orderId: transactionId,
      amount: order.amount ?? orderTotal(plan, promo, creditSpent),
      currency,
      ...(promo ? { discount: orderDiscountOf(promo) } : {}),
      ...(creditSpent > 0 ? { credit: creditSpent } : {}),
      // The customer reads the plan in their language on the provider's page.
      // With a referral's extra days, the duration the provider's page names is the one bought (a subscription's
      // page names its price's interval: the days come after).
      ...(order.product ?? checkoutProduct(bonusDays > 0 && !recurring ? { ...plan, days: plan.days + bonusDays } : plan, kind, locale)),
      customerEmail: user.email,
      customerRef: user.id,
      // The customer comes back to the site in the language they read (their stored one).
      successUrl: `${sitePage(deps, user, '/thank-you')}?session_id={CHECKOUT_ID}`,
      // Our own order id (providers do not fill in theirs here): the dashboard closes that checkout.
      cancelUrl: `${sitePage(deps, user, '/dashboard')}?checkout=cancelled&order=${encodeURIComponent(transactionId)}`,
      locale,
      expiresAt: addSeconds(new Date(), CHECKOUT_SESSION_TTL_SECONDS),
      metadata: {
        subscription_id: subscriptionId,
        vpn_account_id: accountId,
        user_id: user.id,
        plan_id: plan.id,
        kind,
        ...(promo ? { promo_code: promo.code } : {}),
        ...(creditSpent > 0 ? { referral_credit: String(creditSpent) } : {}),
      },
      ...(recurring ? { recurring } : {}),
      ...(saveMethod ? { saveMethod } : {}),
    });
  } catch (err) {
    // The follow-up job stays: it finds no transaction and ends.
    deps.log.error({ err, transactionId, planId: plan.id }, 'payment: the provider refused to create the checkout');
    await deps.db.transaction(async (trx) => {
      // The credit it spent comes back (written before the rows go: the movement names the order).
      if (creditSpent > 0) await deps.credit?.restore((await deps.billing.findTransaction(transactionId, trx))!, deps.clock(), trx);
      await deps.billing.deleteCheckout(subscriptionId, trx);
      if (kind === 'purchase') await deps.accounts.removeIfSuspended(accountId, trx);
    });
    throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.checkoutFailed);
  }
}

/**
 * What the plan costs this customer with the code, or with their referral discount (no use is taken), and what
 * their referral credit would pay of a one-off payment of it: the payment dialog's before and after.
 */
export async function quoteCheckout(deps: CheckoutDeps, user: UserProfile, body: CheckoutQuoteBody): Promise<CheckoutQuote> {
  const { plan, trial, convertsTrial } = await resolveOrder(deps, user, { planId: body.planId });
  const promo = await choosePromo(deps, user, plan, body.promoCode, trial);
  const quoted = await deps.promos.quote(user.id, plan, promo?.promoCode, { referral: promo?.referral });
  return {
    ...quoted,
    credit: await creditOf(deps, user, quoted.currency, quoted.total),
    bonusDays: await bonusDaysOf(deps, user, trial),
    // Bought now, the plan goes to the trial's account (same link): the dialog says so.
    ...(convertsTrial ? { convertsTrial: { accountId: convertsTrial.account_id } } : {}),
  };
}

/** Starts a payment with a provider: the order's rows and follow-up job first, then the provider's page. */
export async function startCheckout(deps: CheckoutDeps, user: UserProfile, body: CheckoutBody): Promise<CheckoutStarted> {
  const method = body.method ?? 'card';
  // The store's currency now: the price is that many of its minor units, and the payment keeps it.
  const { currency } = await deps.settings.getAppSettings();
  if (!isProviderMethod(method)) return startWalletOrder(deps, user, body, currency);
  const { driver, providerId, providerAccountId } = await deps.payments.forCheckout(method, currency);
  assertEmailIfNeeded(driver, user);
  const { plan, kind, accountId: renewedAccountId, trial, convertsTrial } = await resolveOrder(deps, user, body);
  // A recurring plan renews: at a provider with subscriptions of its own (Stripe), or here, charging the method its
  // first payment saves (YooKassa); with any other provider it is taken once and renewed by hand.
  const subscribes = kind === 'purchase' && driver.capabilities.recurring !== 'none' && recurringPriceSpec(plan, currency) !== null;
  const renewedHere = subscribes && driver.capabilities.recurring === 'saved_methods';
  // A purchase's first payment may carry the customer's referral discount when no code is typed.
  const chosen = await choosePromo(deps, user, plan, body.promoCode, trial);
  // Referral credit pays one-off orders, and the first payment of a plan renewed here; a provider subscription's
  // goes to its renewals (credit-push.ts). A referral's extra days come with a first order (a provider
  // subscription's once its first period is paid: recurring-payments.ts).
  const oneOff = !subscribes;
  const spendsCredit = oneOff || renewedHere;
  const bonusDays = await bonusDaysOf(deps, user, trial);
  // A code or credit that leaves nothing to pay once needs no payment provider (asked here without taking a use).
  if (oneOff) {
    const total = await quotedTotal(deps, user, plan, chosen);
    if (total - (await creditOf(deps, user, currency, total)) === 0) {
      await assertCanProvision(deps, plan);
      return startFreeOrder(deps, user, { plan, kind, renewedAccountId, currency, promo: chosen, bonusDays, trial, convertsTrial });
    }
  }
  await assertCanProvision(deps, plan);
  const recurring = await recurringTerms(deps, driver, user, plan, kind, currency);

  const ids = newOrderIds(renewedAccountId);
  const { subscriptionId, transactionId, accountId } = ids;
  let promo: AppliedPromo | null = null;
  let creditSpent = 0;
  // The pending rows and their follow-up job in one transaction (with the code's use, when one was typed, and the
  // credit spent): whatever happens after this, the job asks the provider about it (or closes it if the checkout was
  // never created, which gives the use and the credit back).
  await deps.db.transaction(async (trx) => {
    const write = async (applied: AppliedPromo | null) => {
      const now = deps.clock();
      const total = orderTotal(plan, applied);
      creditSpent = spendsCredit ? await spendCredit(deps, trx, user, { currency, total, transactionId, leaveCharge: true, kind }) : 0;
      await deps.orders.insert(trx, now, {
        user,
        plan,
        kind,
        currency,
        ids,
        amount: total - creditSpent,
        providerId,
        providerAccountId,
        billing: subscribes ? 'recurring' : 'one_off',
        promo: applied,
        creditSpent,
        bonusDays,
        ...(renewedHere ? { renewedHere } : {}),
        trial,
        convertsTrial,
      });
      await enqueueFollowUp(deps, trx, transactionId, now);
    };
    if (chosen) promo = await deps.promos.redeem(trx, { ...chosen, userId: user.id, plan, currency, transactionId, subscriptionId }, write);
    else await write(null);
  });

  await crashPoint('checkout:after-order');
  const checkout = await openCheckout(deps, driver, {
    user,
    plan,
    kind,
    transactionId,
    subscriptionId,
    accountId,
    currency,
    recurring,
    promo,
    creditSpent,
    bonusDays,
    saveMethod: renewedHere,
  });
  let amount = orderTotal(plan, promo, creditSpent);
  // (With credit the provider is told the whole discount as one amount: its total is ours.)
  if (promo && creditSpent === 0 && checkout.amountTotal !== undefined && checkout.amountTotal !== amount) {
    // The provider rounded the code's discount otherwise: its figure is what the customer pays (before anyone can).
    deps.log.warn(
      { transactionId, ours: amount, provider: checkout.amountTotal },
      'payment: the provider computed the discounted total otherwise; keeping its figure',
    );
    amount = checkout.amountTotal;
    await deps.promos.keepProviderTotal(transactionId, amount);
  }
  await recordStarted(deps, {
    accountId,
    userId: user.id,
    checkoutId: checkout.checkoutId,
    transactionId,
    planId: plan.id,
    amount,
    kind,
    ...(promo ? { promoCode: (promo as AppliedPromo).code } : {}),
    ...(creditSpent > 0 ? { creditSpent } : {}),
  });
  return { url: checkout.url, sessionId: checkout.checkoutId, subscriptionId };
}

/** The provider's checkout is the order's from now on (its return and webhooks name it), and the account's log says so. */
export async function recordStarted(
  deps: CheckoutDeps,
  started: { accountId: string; userId: string; checkoutId: string; transactionId: string; planId: string; amount: number; kind: CheckoutKind } & Record<
    string,
    unknown
  >,
): Promise<void> {
  const { accountId, userId, ...details } = started;
  const now = deps.clock();
  await deps.billing.setProviderTransactionId(started.transactionId, started.checkoutId, now);
  await deps.accounts.insertLog({ accountId, userId, step: 'checkout_started', status: 'success', details, now });
}

/** A provider that sends its receipt by e-mail (YooKassa with receipts) is refused, before any order, to a customer with no address. */
export function assertEmailIfNeeded(driver: PaymentDriver, user: UserProfile): void {
  if (driver.capabilities.emailRequired && !user.email) throw new AppError(409, 'email_required', MESSAGES.emailRequired);
}
