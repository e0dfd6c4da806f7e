/**
 * A customer switches an account to another plan (issue 55): the unused part of what they paid for it (the
 * paid-period ledger, to the day) is credited against the new plan, which runs from now. More than the credit is
 * paid now; less is a downgrade, which the operator lets credit the customer's wallet with the rest, or wait for
 * the period's end (`planChangeDowngrade` in the settings). Types and request schemas of its HTTP contract.
 */
import { z } from 'zod';
import { SITE_PAYMENT_METHODS } from './billing-schemas.js';

/** What a downgrade does (the operator's choice): the rest of the credit into the wallet now, or the switch at the period's end. */
export const PLAN_CHANGE_DOWNGRADES = ['wallet', 'period_end'] as const;
export type PlanChangeDowngrade = (typeof PLAN_CHANGE_DOWNGRADES)[number];
export const PLAN_CHANGE_DOWNGRADE_DEFAULT: PlanChangeDowngrade = 'wallet';

const Id = z.string().trim().min(1, 'Choose a plan').max(64);

/** `POST /api/accounts/:id/change-plan/quote`. */
export const PlanChangeQuoteBody = z.object({ planId: Id }).strict();
export type PlanChangeQuoteBody = z.infer<typeof PlanChangeQuoteBody>;

/** `POST /api/accounts/:id/change-plan`: card when `method` is omitted (a change with nothing to pay takes none). */
export const PlanChangeBody = z
  .object({
    planId: Id,
    method: z.enum(SITE_PAYMENT_METHODS, { error: 'The payment method is "card", "crypto", "yookassa", "cryptopay" or "wallet"' }).optional(),
  })
  .strict();
export type PlanChangeBody = z.infer<typeof PlanChangeBody>;

/** What switching an account to a plan would do now (minor units of `currency`). */
export interface PlanChangeQuote {
  accountId: string;
  fromPlanId: string | null;
  planId: string;
  currency: string;
  /** The new plan's price. */
  price: number;
  /** What the unused paid time is worth, credited against the price. */
  credit: number;
  /** The whole days of paid time left, which `credit` is for. */
  creditDays: number;
  /** Paid now: the price less the credit (0 for a downgrade). */
  charge: number;
  /** A downgrade that credits the wallet: what goes into it. */
  walletCredit: number;
  /** `now`: the new plan runs from now (paid, or a downgrade into the wallet); `period_end`: a downgrade waits for the paid end. */
  takesEffect: 'now' | 'period_end';
  /** When the new plan starts. */
  effectiveAt: string;
  /** Its account's paid end after the change. */
  expiresAt: string;
  /**
   * An account a card subscription renews (its plan changes at Stripe, which prorates it: `credit` is what Stripe
   * credits for the unused time, `charge` what its proration invoice charges the card now): what a downgrade leaves
   * over goes into the customer's balance at Stripe, which pays their next invoices (never the wallet here). Present
   * only for such an account (0 for an upgrade).
   */
  balanceCredit?: number;
}

/** `POST /api/accounts/:id/change-plan`: the payment started (as a checkout's), or the downgrade set for the period's end. */
export type PlanChangeStarted =
  { takesEffect: 'now'; url: string; sessionId: string; subscriptionId: string } | { takesEffect: 'period_end'; planId: string; effectiveAt: string };

export const PLAN_CHANGE_MESSAGES = {
  samePlan: 'This account is on that plan already.',
  notSwitchable: 'This account cannot change plan: a trial becomes a paid plan when you buy one.',
  renewsByItself: 'This plan renews by itself with your card: turn off auto-renew first, then change plan when it ends.',
  renewsByStars:
    'This plan renews through Telegram Stars, which cannot change its price: turn off auto-renew in Telegram first, then change plan when it ends.',
  renewalMismatchStore:
    'This account renews automatically: it can change only to another plan that renews automatically. Turn off auto-renew first to change to this one.',
  inProgress: 'A plan change for this account is waiting for its payment: finish or cancel it first.',
  disputed: 'A payment for this account is disputed, so its plan cannot change now.',
  otherCurrency: 'This account was paid in another currency, so its unused time cannot be credited: renew it, or contact support.',
  noScheduledChange: 'No plan change is waiting for this account.',
  notHere: 'This plan is not offered where your account is: buy it as a new account instead.',
  renewalMismatch:
    'This account renews with your card subscription: it can change only to another plan that renews by card at the same interval, paid by that card.',
  renewalUnpaid: 'A renewal of this account has not been paid: update your card in the billing portal, then change plan.',
  cardDeclined: 'Your card was declined, so the plan did not change. Update your card in the billing portal and try again.',
} as const;
