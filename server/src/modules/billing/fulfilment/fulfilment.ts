import { PermanentJobError } from '../../../jobs/worker.js';
import { provisionPurchase } from './deliver-purchase.js';
import { deliverAddOn, revokeTrafficAddOn } from './deliver-add-on.js';
import { deliverRenewal } from './deliver-renewal.js';
import type { FulfilmentDeps } from './fulfilment-deps.js';
import { convertedTrial } from '../trials/trial-rules.js';
import { refundRefusedTrial } from './refund-refused-trial.js';

/**
 * Delivers what a succeeded payment bought: a purchase creates the panel user for the waiting
 * account; a renewal extends the same panel user. Safe to run again after a crash at any point: the
 * panel create adopts a user carrying our marker, extend sets absolute values, and `fulfilled_at`
 * ends it.
 */
export function createFulfilment(deps: FulfilmentDeps) {
  return {
    /** Runs for a succeeded transaction; throws to be tried again. */
    fulfil: (transactionId: string): Promise<void> => fulfil(deps, transactionId),
    /** A traffic add-on refunded: its panel data limit comes down (a job: the panel may be down). */
    revokeAddOn: (transactionId: string): Promise<void> => revokeTrafficAddOn(deps, transactionId),
  };
}

export type Fulfilment = ReturnType<typeof createFulfilment>;

/** Delivers a succeeded transaction once: a purchase (deliver-purchase.ts) or a renewal (deliver-renewal.ts). */
export async function fulfil(deps: FulfilmentDeps, transactionId: string): Promise<void> {
  const { billing } = deps;
  const transaction = await billing.findTransaction(transactionId);
  if (!transaction) throw new PermanentJobError(`Transaction ${transactionId} does not exist`);
  // Refunded (or disputed) before it was delivered: there is nothing to deliver.
  if (transaction.status === 'refunded' || transaction.status === 'disputed') return;
  if (transaction.status !== 'succeeded') throw new PermanentJobError(`Transaction ${transactionId} is ${transaction.status}, not paid`);
  const subscription = await billing.findSubscription(transaction.subscriptionId);
  if (!subscription) throw new PermanentJobError(`Subscription ${transaction.subscriptionId} does not exist`);
  // A recurring subscription is delivered invoice by invoice: its first provisions, each later one extends.
  const recurring = subscription.billing === 'recurring';
  if (recurring ? transaction.metadata.fulfilled_at : subscription.metadata.fulfilled_at) return;
  const kind = recurring ? transaction.metadata.kind : subscription.metadata.kind;
  // A plan change is delivered as a renewal is: the same panel user, with the new plan's limits and expiry.
  if (kind === 'renewal' || kind === 'change') await deliverRenewal(deps, subscription, transaction);
  else if (kind === 'add_on') await deliverAddOn(deps, subscription, transaction);
  // A paid trial whose person had taken the trial by the time it was paid: its money goes back (billing/trials).
  else if (subscription.metadata.trial_refused) await refundRefusedTrial(deps, subscription, transaction);
  // A plan bought within the trial, which the trial's account became: that panel user gets the plan.
  else if (convertedTrial(subscription, transaction)) await deliverRenewal(deps, subscription, transaction, { conversion: true });
  else await provisionPurchase(deps, subscription, transaction);
  // A paid trial delivered: the customer's `trialUsed` (marked with its payment) is read afresh.
  if (subscription.metadata.trial) deps.userChanged?.(subscription.userId);
}
