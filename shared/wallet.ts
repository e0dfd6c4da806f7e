/**
 * The customer's wallet: one ledger in the store's currency (a row per movement; the balance is their sum), which
 * referral rewards, top-ups and refunds put money into and purchases and renewals take it from. Types and request
 * schemas of its HTTP contract.
 */
import { z } from 'zod';
import { SITE_PROVIDER_METHODS, type PaymentMethod } from './billing-schemas.js';

/** How a movement shows to the customer (`plan_change`: a downgrade's unused paid time, credited). */
export const WALLET_MOVEMENT_KINDS = ['top_up', 'purchase', 'renewal', 'refund', 'referral', 'adjustment', 'plan_change'] as const;
export type WalletMovementKind = (typeof WALLET_MOVEMENT_KINDS)[number];

export interface WalletMovement {
  id: string;
  kind: WalletMovementKind;
  /** Minor units of `currency`, signed: what it added to the balance. */
  amount: number;
  currency: string;
  createdAt: string;
  /** When it counts (a referral reward: after the refund window). */
  availableAt: string;
  /** The admin's note of an adjustment, or the plan a purchase or renewal paid for. */
  note: string | null;
}

/** `GET /api/wallet`. */
export interface Wallet {
  /** The store's currency: `balance` and `pending` are minor units of it. */
  currency: string;
  /** What can be spent now. */
  balance: number;
  /** Referral rewards still inside their refund window. */
  pending: number;
  /** The latest movements, newest first (each in its own currency). */
  movements: WalletMovement[];
  /** Topping up: the methods it can be paid with now, and the least and most at once; null while none is on. */
  topUp: { methods: PaymentMethod[]; min: number; max: number } | null;
}

/** `POST /api/wallet/top-up`: an amount in minor units of the store's currency, paid with a provider's method. */
export const TopUpBody = z
  .object({
    amount: z
      .number({ error: "The amount is in minor units of the store's currency" })
      .int("The amount is a whole number of the store's minor units")
      .positive('The amount must be more than 0'),
    method: z.enum(SITE_PROVIDER_METHODS, { error: 'Choose how to pay' }),
  })
  .strict();
export type TopUpBody = z.infer<typeof TopUpBody>;

/** The answer of `POST /api/wallet/top-up`: the provider's page; back on `/wallet?session_id=…` once paid. */
export interface TopUpStarted {
  url: string;
  sessionId: string;
}

/** `POST /api/admin/users/:id/wallet`: money put in (positive) or taken out (negative), with why. */
export const WalletAdjustmentBody = z
  .object({
    amount: z
      .number({ error: 'The amount is in minor units' })
      .int('The amount is a whole number of minor units')
      .refine((value) => value !== 0, 'The amount cannot be 0')
      .refine((value) => Math.abs(value) <= 100_000_000, 'The amount is too large'),
    note: z.string().trim().min(1, 'Say why, for the customer and the audit log').max(200, 'The note is at most 200 characters'),
  })
  .strict();
export type WalletAdjustmentBody = z.infer<typeof WalletAdjustmentBody>;

/** The admin's view of a customer's wallet (user page). */
export interface AdminWallet extends Omit<Wallet, 'topUp'> {
  userId: string;
}

/** Top-up limits until the operator sets them: 5 and 1,000 of the store's major unit. */
export const TOP_UP_DEFAULTS = { minMajor: 5, maxMajor: 1000 } as const;

/** Why a payment from the balance was refused: the balance does not cover it; `needed` is what is missing. */
export const WALLET_MESSAGES = {
  insufficient: 'Your balance does not cover this. Top it up, or pay another way.',
  adjustmentOverdraws: 'The balance would go below zero.',
  topUpLimits: 'The amount is outside the top-up limits.',
  topUpsOff: 'Topping up the balance is not available right now.',
} as const;
