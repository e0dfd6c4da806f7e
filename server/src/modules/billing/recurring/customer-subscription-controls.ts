import { BILLING_MESSAGES, type BillingPortalStarted, type Subscription } from '../../../../../shared/billing.js';
import { DEFAULT_LOCALE, localizedPath } from '../../../../../shared/locales.js';
import { AppError, notFound } from '../../../errors.js';
import { PaymentProviderError } from '../../../payments/payment-driver.js';
import type { UserProfile } from '../../users/index.js';
import type { SubscriptionRecord } from '../billing.repo.js';
import { customerKeyOfDriver } from '../provider-accounts/payment-customers.js';
import { toSubscription } from '../subscription-presenter.js';
import { toSavedPaymentMethod } from './saved-methods.service.js';
import { assertChangeable, assertNotPaidAhead, change, changeHere, renewedHere } from './subscription-changes.js';
import type { SubscriptionControlsDeps } from './subscription-controls-deps.js';

/** What customers do to their own recurring subscriptions: auto-renew off and back on, and the provider's billing portal. */

async function present(deps: SubscriptionControlsDeps, record: SubscriptionRecord): Promise<Subscription> {
  const method = record.savedMethodId ? await deps.savedMethods.findById(record.savedMethodId) : undefined;
  const saved = method && !method.removedAt ? new Map([[method.id, toSavedPaymentMethod(method)]]) : undefined;
  return toSubscription(record, deps.clock(), await deps.paidPeriods.graceMs(), saved);
}

async function ownSubscription(deps: SubscriptionControlsDeps, user: UserProfile, id: string): Promise<SubscriptionRecord> {
  const record = await deps.billing.findSubscriptionForUser(id, user.id);
  if (!record) throw notFound(BILLING_MESSAGES.subscriptionNotFound);
  return record;
}

/** Auto-renew off: no further charge; the account runs to the end of what is paid. */
export async function cancelSubscription(deps: SubscriptionControlsDeps, user: UserProfile, id: string): Promise<Subscription> {
  const record = await ownSubscription(deps, user, id);
  assertChangeable(record);
  if (record.cancelAtPeriodEnd) return present(deps, record);
  if (renewedHere(record)) return present(deps, await changeHere(deps, record, 'cancel_at_period_end'));
  return present(deps, await change(deps, record, (d, ref) => d.setCancelAtPeriodEnd(ref, true)));
}

/** Auto-renew back on, while the paid period has not ended. */
export async function resumeSubscription(deps: SubscriptionControlsDeps, user: UserProfile, id: string): Promise<Subscription> {
  const record = await ownSubscription(deps, user, id);
  assertChangeable(record);
  if (!record.cancelAtPeriodEnd) return present(deps, record);
  await assertNotPaidAhead(deps, record);
  if (renewedHere(record)) return present(deps, await changeHere(deps, record, 'resume'));
  return present(deps, await change(deps, record, (d, ref) => d.setCancelAtPeriodEnd(ref, false)));
}

/**
 * The provider's page for the caller's card and invoices, at the account that bills the caller's
 * subscription (else the keys in force); the customer comes back to the dashboard.
 */
export async function openBillingPortal(deps: SubscriptionControlsDeps, user: UserProfile): Promise<BillingPortalStarted> {
  const current = await deps.payments.accounts.forAccount('card', await deps.billingAccountOfUser(user.id));
  if (!current) throw new AppError(503, 'payment_not_configured', BILLING_MESSAGES.notConfigured);
  try {
    const customer = await deps.customers.find(user.id, await customerKeyOfDriver(current));
    if (!customer) throw new AppError(409, 'no_billing_account', BILLING_MESSAGES.noBillingAccount);
    const locale = user.locale ?? DEFAULT_LOCALE;
    return { url: await current.openBillingPortal(customer.customerRef, new URL(localizedPath(locale, '/dashboard'), deps.publicUrl).href, locale) };
  } catch (err) {
    if (!(err instanceof PaymentProviderError)) throw err;
    deps.log.warn({ err, userId: user.id }, 'recurring: the billing portal could not be opened');
    throw new AppError(502, 'payment_provider_error', BILLING_MESSAGES.portalFailed);
  }
}
