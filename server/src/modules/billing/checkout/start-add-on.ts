import { ADD_ON_MESSAGES, type BuyAddOnBody } from '../../../../../shared/add-ons.js';
import type { CheckoutStarted } from '../../../../../shared/billing.js';
import { isProviderMethod } from '../../../../../shared/billing-schemas.js';
import { DEFAULT_LOCALE } from '../../../../../shared/locales.js';
import { AppError, notFound } from '../../../errors.js';
import type { AccountRecord } from '../../accounts/index.js';
import type { PlanRecord } from '../../plans/index.js';
import type { UserProfile } from '../../users/index.js';
import type { AddOnRecord } from '../add-ons/add-ons.repo.js';
import { sitePage, type CheckoutDeps } from './checkout-deps.js';
import { enqueueFollowUp } from './follow-up.js';
import { newOrderIds } from './order-rows.js';
import { insufficientBalance, spendCredit } from './order-terms.js';
import { assertEmailIfNeeded, openCheckout, recordStarted } from './start-checkout.js';

/**
 * Buying an add-on for an account (issue 55): an order like any other (kind `add_on`, named after the add-on, at its
 * price in the store's currency), paid from the wallet at once or through a provider's page, and given to the account
 * once when paid (confirm-paid.ts), on the panel by the fulfilment job (deliver-add-on.ts).
 */

/** The add-on's name in the customer's language (English where the operator gave none). */
const nameIn = (addOn: AddOnRecord, locale: string) =>
  (locale !== 'en' ? addOn.translations[locale as keyof AddOnRecord['translations']]?.name : undefined) ?? addOn.name;

/** The account (the caller's, with paid time running and a plan the add-on is sold for) and the add-on to buy. */
export async function addOnOrder(
  deps: CheckoutDeps,
  user: UserProfile,
  accountId: string,
  addOnId: string,
): Promise<{ account: AccountRecord; plan: PlanRecord; addOn: AddOnRecord }> {
  const account = await deps.accounts.findForUser(accountId, user.id);
  if (!account) throw notFound('Account not found');
  const addOn = await deps.addOns.findById(addOnId);
  if (!addOn || addOn.status !== 'active') throw notFound(ADD_ON_MESSAGES.notFound);
  if (account.status === 'suspended') throw new AppError(409, 'account_suspended', 'This account is still waiting for its first payment.');
  const plan = account.planId ? await deps.plans.findById(account.planId) : undefined;
  if (!plan || (addOn.appliesTo !== null && !addOn.appliesTo.includes(plan.id))) throw new AppError(409, 'add_on_not_for_plan', ADD_ON_MESSAGES.notForPlan);
  const paidEnd = account.paidUntil ?? account.expireDate;
  if (!paidEnd || paidEnd <= deps.clock()) throw new AppError(409, 'add_on_not_running', ADD_ON_MESSAGES.notRunning);
  const unlimited = addOn.kind === 'devices' ? account.deviceLimit === null : account.dataLimitBytes <= 0;
  if (unlimited) throw new AppError(409, 'add_on_unlimited', ADD_ON_MESSAGES.unlimited);
  return { account, plan, addOn };
}

/** `POST /api/accounts/:id/add-ons`: `{ url, sessionId, subscriptionId }`, as a checkout answers. */
export async function startAddOnCheckout(deps: CheckoutDeps, user: UserProfile, accountId: string, body: BuyAddOnBody): Promise<CheckoutStarted> {
  const method = body.method ?? 'card';
  const { currency } = await deps.settings.getAppSettings();
  const provider = isProviderMethod(method) ? await deps.payments.forCheckout(method, currency) : null;
  if (provider) assertEmailIfNeeded(provider.driver, user);
  const { account, plan, addOn } = await addOnOrder(deps, user, accountId, body.addOnId);
  const ids = newOrderIds(account.id);
  const locale = user.locale ?? DEFAULT_LOCALE;
  const order = {
    user,
    plan,
    kind: 'add_on' as const,
    currency,
    ids,
    addOn: { id: addOn.id, name: addOn.name, kind: addOn.kind, amount: addOn.amount, until: addOn.until },
    addOnNames: Object.fromEntries(Object.entries(addOn.translations).map(([language, text]) => [language, text.name])),
  };
  if (!provider) {
    // From the wallet: paid and given at once, or refused with what is missing (nothing written).
    const checkoutId = await deps.db.transaction(async (trx) => {
      const spent = await spendCredit(deps, trx, user, { currency, total: addOn.price, transactionId: ids.transactionId, leaveCharge: false, kind: 'add_on' });
      if (spent !== addOn.price) throw insufficientBalance(addOn.price - spent);
      return deps.orders.placeFree(trx, { ...order, creditSpent: spent, bonusDays: 0 });
    });
    return {
      url: `${sitePage(deps, user, '/thank-you')}?session_id=${encodeURIComponent(checkoutId)}`,
      sessionId: checkoutId,
      subscriptionId: ids.subscriptionId,
    };
  }
  await deps.db.transaction(async (trx) => {
    const now = deps.clock();
    await deps.orders.insert(trx, now, {
      ...order,
      amount: addOn.price,
      providerId: provider.providerId,
      providerAccountId: provider.providerAccountId,
      billing: 'one_off',
    });
    await enqueueFollowUp(deps, trx, ids.transactionId, now);
  });
  const checkout = await openCheckout(deps, provider.driver, {
    ...ids,
    user,
    plan,
    kind: 'add_on',
    currency,
    recurring: null,
    promo: null,
    creditSpent: 0,
    bonusDays: 0,
    saveMethod: false,
    amount: addOn.price,
    product: { productName: nameIn(addOn, locale), description: account.username },
  });
  await recordStarted(deps, {
    accountId: account.id,
    userId: user.id,
    checkoutId: checkout.checkoutId,
    transactionId: ids.transactionId,
    planId: plan.id,
    amount: addOn.price,
    kind: 'add_on',
    addOnId: addOn.id,
  });
  return { url: checkout.url, sessionId: checkout.checkoutId, subscriptionId: ids.subscriptionId };
}
