import { randomUUID } from 'node:crypto';
import { BILLING_MESSAGES } from '../../../../../shared/billing.js';
import { isUniqueViolation } from '../../../db/errors.js';
import type { Db } from '../../../db/knex.js';
import { AppError } from '../../../errors.js';
import type { Clock } from '../../../lib/clock.js';
import type { OrderDiscount } from '../../../payments/payment-driver.js';
import { generateSubToken, generateUsername } from '../../accounts/index.js';
import type { AccountsRepo } from '../../accounts/index.js';
import type { PlanRecord } from '../../plans/index.js';
import type { AppliedPromo } from '../../promo-codes/index.js';
import type { UserProfile } from '../../users/index.js';
import type { BillingRepo, CheckoutKind, OrderPromo, SubscriptionMetadata, TransactionMetadata, TrialConversion } from '../billing.repo.js';
import { assertTrialFree } from '../trials/trial-rules.js';
import type { TrialsRepo } from '../trials/trials.repo.js';
import { planNamesOf } from '../../../../../shared/plan-translations.js';
import type { PaymentConfirmation } from './payment-confirmation.js';

/** The rows of one order: its subscription, its transaction, and the account it makes or extends. */
export interface OrderIds {
  subscriptionId: string;
  transactionId: string;
  accountId: string;
}

export const newOrderIds = (renewedAccountId: string | null): OrderIds => ({
  subscriptionId: randomUUID(),
  transactionId: randomUUID(),
  accountId: renewedAccountId ?? randomUUID(),
});

/** The code's terms as the provider is told them. */
export const orderDiscountOf = (promo: AppliedPromo): OrderDiscount => ({
  ref: promo.promoCodeId,
  code: promo.code,
  amountBefore: promo.amountBefore,
  percentOff: promo.percentOff,
  amountOff: promo.amountOff,
  duration: promo.duration,
  durationMonths: promo.durationMonths,
});

/** The code's terms as the order keeps them: later charges of a subscription are discounted for its duration. */
const orderPromoOf = (promo: AppliedPromo): OrderPromo => ({
  code: promo.code,
  duration: promo.duration,
  duration_months: promo.durationMonths,
  discount: promo.discount,
});

export interface NewOrder {
  user: UserProfile;
  plan: PlanRecord;
  kind: CheckoutKind;
  currency: string;
  ids: OrderIds;
  /** What the order charges (the plan's price, less a code's discount and the credit spent; 0 for a free order). */
  amount: number;
  providerId: string | null;
  providerAccountId: string | null;
  billing: 'recurring' | 'one_off';
  promo?: AppliedPromo | null;
  /** Referral credit that paid part of it (minor units; written as `spent` with it). */
  creditSpent?: number;
  /**
   * Extra days a referral gives it: a one-off order buys the plan's days and these; a subscription's first period is
   * the provider's, and these are added after it is paid (recurring-payments.ts).
   */
  bonusDays?: number;
  /** Redeemed with a gift code: the code, for the order's history. */
  giftCode?: string;
  /** Known before the provider is asked (a free order's own id). */
  providerTransactionId?: string;
  /** A recurring plan this server renews (its provider has no subscriptions): see store-renewals.ts. */
  renewedHere?: boolean;
  /** A plan change (kind `change`): the plan it leaves and the credit it was given (plan-change-terms.ts). */
  change?: SubscriptionMetadata['change'];
  /** An add-on (kind `add_on`): what it gives the account; the order is named after it. */
  addOn?: SubscriptionMetadata['add_on'];
  /** The add-on's name in the other languages (its order's name, as a plan's). */
  addOnNames?: SubscriptionMetadata['plan_names'];
  /** The trial with a price (kind `purchase`): its waiting account holds the person's trial, decided under their lock. */
  trial?: boolean;
  /** A purchase made within the trial: the trial account it goes to (billing/trials/trial-rules.ts); no waiting account is made. */
  convertsTrial?: TrialConversion | null;
}

/**
 * Writing orders: a purchase's waiting account and the order (subscription + pending transaction), and an order
 * with nothing to pay, written as paid in the caller's transaction (no provider; the account is provisioned by the
 * same job as a paid one, and the return pages follow it as they follow a payment).
 */
export function createOrderRows(deps: { billing: BillingRepo; accounts: AccountsRepo; trials: TrialsRepo; confirmation: PaymentConfirmation; clock: Clock }) {
  /**
   * A purchase's waiting account. A trial's holds the person's trial from now on (the unique `trial_user_id`): asked
   * again under the person's row lock, so that two orders of the trial at once make one (the other is refused).
   */
  async function insertWaitingAccount(trx: Db, now: Date, order: NewOrder): Promise<void> {
    const { user, plan, ids } = order;
    if (order.trial) {
      await deps.trials.lockPerson(user.id, trx);
      await assertTrialFree(deps.trials, user.id, trx);
    }
    try {
      await deps.accounts.insertPending(
        {
          id: ids.accountId,
          userId: user.id,
          planId: plan.id,
          username: generateUsername(),
          subToken: generateSubToken(),
          trialUserId: order.trial ? user.id : null,
          deviceLimit: plan.deviceLimit,
        },
        now,
        trx,
      );
    } catch (err) {
      if (order.trial && isUniqueViolation(err)) throw new AppError(409, 'trial_in_progress', BILLING_MESSAGES.trialInProgress);
      throw err;
    }
  }

  async function insert(trx: Db, now: Date, order: NewOrder): Promise<void> {
    const { user, plan, kind, currency, ids, promo } = order;
    const bonusDays = order.bonusDays ?? 0;
    // A purchase within the trial goes to the trial's account: nothing waits for it.
    if (kind === 'purchase' && !order.convertsTrial) await insertWaitingAccount(trx, now, order);
    const transactionNotes: Pick<TransactionMetadata, 'promo' | 'gift_code' | 'credit_spent'> = {
      ...(promo ? { promo: { code: promo.code, amount_before: promo.amountBefore, discount: promo.discount } } : {}),
      ...(order.giftCode ? { gift_code: order.giftCode } : {}),
      ...(order.creditSpent ? { credit_spent: order.creditSpent } : {}),
    };
    await deps.billing.insertCheckout(
      {
        subscription: {
          id: ids.subscriptionId,
          userId: user.id,
          vpnAccountId: ids.accountId,
          providerId: order.providerId,
          providerAccountId: order.providerAccountId,
          planId: plan.id,
          billing: order.billing,
          metadata: {
            // A referral's extra days lengthen the first period we set (one paid once, or the first of a plan renewed here).
            plan_id: plan.id,
            plan_name: order.addOn?.name ?? plan.name,
            plan_names: order.addOn ? (order.addOnNames ?? {}) : planNamesOf(plan.translations),
            price: plan.price,
            kind,
            days: plan.days + (order.billing === 'one_off' || order.renewedHere ? bonusDays : 0),
            data_limit: plan.dataLimitBytes,
            locations: plan.locations,
            device_limit: plan.deviceLimit,
            currency,
            ...(promo ? { promo: orderPromoOf(promo) } : {}),
            ...(bonusDays ? { bonus_days: bonusDays } : {}),
            ...(order.renewedHere ? { renewed_by: 'store' as const } : {}),
            ...(order.change ? { change: order.change } : {}),
            ...(order.addOn ? { add_on: order.addOn } : {}),
            ...(order.trial ? { trial: true as const } : {}),
            ...(order.convertsTrial ? { converts_trial: order.convertsTrial } : {}),
          },
        },
        transaction: { id: ids.transactionId, amount: order.amount, currency, providerTransactionId: order.providerTransactionId, ...transactionNotes },
      },
      now,
      trx,
    );
  }

  return {
    insert,

    /** A free order, paid as it is written; returns the id the return pages know it by (`free_<transaction id>`). */
    /**
     * An order nothing is left to pay for (a code, credit, the wallet), placed and paid at once. `checkoutId` names
     * it when the caller must place it only once (unique: a second one with the same name fails in `trx`).
     */
    async placeFree(
      trx: Db,
      order: Omit<NewOrder, 'amount' | 'providerId' | 'providerAccountId' | 'billing' | 'providerTransactionId'> & { checkoutId?: string },
    ): Promise<string> {
      const checkoutId = order.checkoutId ?? `free_${order.ids.transactionId}`;
      await insert(trx, deps.clock(), {
        ...order,
        amount: 0,
        providerId: null,
        providerAccountId: null,
        billing: 'one_off',
        providerTransactionId: checkoutId,
      });
      await deps.confirmation.applyCheckout(
        { checkoutId, orderId: order.ids.transactionId, outcome: 'paid', amountPaid: 0, currency: order.currency, paymentRef: null },
        trx,
      );
      return checkoutId;
    },
  };
}

export type OrderRows = ReturnType<typeof createOrderRows>;
