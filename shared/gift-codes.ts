/**
 * Gift codes: single-use codes the operator issues in batches for a plan (sold elsewhere, handed out at an event,
 * given to a partner). A customer redeems one on the dashboard for a new account on that plan, or for the plan's
 * days on an account of theirs on the same plan.
 */
import { z } from 'zod';

/** The letters a code is made of: no 0/O or 1/I/L to misread. */
export const GIFT_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
/** Sixteen of them (about 79 bits), shown in four groups: `ABCD-EFGH-JKMN-PQRS`. */
export const GIFT_CODE_LENGTH = 16;
export const GIFT_BATCH_MAX = 1000;

/** A code as typed (any case, with or without dashes and spaces) as it is stored and matched. */
export const giftCodeKey = (code: string) => code.toUpperCase().replace(/[\s-]+/g, '');

export const GIFT_MESSAGES = {
  notFound: 'This gift code does not exist.',
  used: 'This gift code has already been used.',
  planGone: 'The plan of this gift code is no longer available. Please contact support.',
  otherPlan: 'This gift is for another plan: redeem it as a new account instead.',
} as const;

/** `POST /api/gift-codes/redeem`: a new account, or the plan's days on `accountId` (one of the caller's, on the same plan). */
export const RedeemGiftCodeBody = z
  .object({
    code: z.string({ error: 'Enter the gift code' }).trim().min(1, 'Enter the gift code').max(40, 'Enter the gift code as you received it'),
    accountId: z.string().trim().min(1).max(64).optional(),
  })
  .strict();
export type RedeemGiftCodeBody = z.infer<typeof RedeemGiftCodeBody>;

/** `POST /api/gift-codes/check`: what a code gives, before it is redeemed. */
export const CheckGiftCodeBody = z
  .object({
    code: z.string({ error: 'Enter the gift code' }).trim().min(1, 'Enter the gift code').max(40, 'Enter the gift code as you received it'),
  })
  .strict();
export type CheckGiftCodeBody = z.infer<typeof CheckGiftCodeBody>;

/** What an unused code gives: its plan, and the caller's accounts its days can go to (on that plan, not renewing by themselves). */
export interface GiftChecked {
  planName: string;
  accountIds: string[];
}

/** The answer of a redemption: the order it made, followed like a payment (`GET /api/checkout/:sessionId`). */
export interface GiftRedeemed {
  sessionId: string;
  subscriptionId: string;
  accountId: string;
  /** The code's plan: the name it was sold under (English) and its id, to name it in the reader's language. */
  planId: string;
  planName: string;
  renewal: boolean;
}

/** `POST /api/admin/gift-codes`. */
export const CreateGiftCodesBody = z
  .object({
    planId: z.string({ error: 'Pick a plan' }).trim().min(1, 'Pick a plan').max(64),
    count: z
      .number({ error: 'How many codes: 1 to 1000' })
      .int('How many codes: 1 to 1000')
      .min(1, 'How many codes: 1 to 1000')
      .max(GIFT_BATCH_MAX, 'How many codes: 1 to 1000'),
    note: z.string().trim().max(200).optional(),
  })
  .strict();
export type CreateGiftCodesBody = z.infer<typeof CreateGiftCodesBody>;

/** A batch as the admin sees it. */
export interface AdminGiftBatch {
  id: string;
  planId: string | null;
  planName: string;
  count: number;
  redeemed: number;
  revoked: number;
  note: string | null;
  createdAt: string;
}

/** One code of a batch (the CSV's rows). */
export interface AdminGiftCode {
  code: string;
  status: 'unused' | 'redeemed' | 'revoked';
  redeemedBy: string | null;
  redeemedAt: string | null;
}

/** The answer of `POST /api/admin/gift-codes`: the batch, and its codes (shown once; the CSV has them again). */
export interface GiftBatchCreated {
  batch: AdminGiftBatch;
  codes: string[];
}
