import { z } from 'zod';
import type { AdminGiftBatch, GiftBatchCreated, GiftChecked, GiftRedeemed } from '../../../shared/gift-codes.js';

/**
 * What the gift-code routes answer: a redemption's order, and the admin's batches (a new batch comes back once with
 * its codes), checked against the shared types. The CSV download is text, not described here. Times are ISO strings.
 */

/** `POST /api/gift-codes/check` → 200: the code's plan and the caller's accounts it can extend. */
export const GiftCheckedAnswer = z.object({ planName: z.string(), accountIds: z.array(z.string()) }) satisfies z.ZodType<GiftChecked>;

/** `POST /api/gift-codes/redeem` → 201: the order it made, followed like a payment (`GET /api/checkout/:sessionId`). */
export const GiftRedeemedAnswer = z.object({
  sessionId: z.string(),
  subscriptionId: z.string(),
  accountId: z.string(),
  planId: z.string(),
  planName: z.string(),
  renewal: z.boolean(),
}) satisfies z.ZodType<GiftRedeemed>;

/** A batch as the admin sees it: the list's rows, and the answer of revoking its unused codes. */
export const AdminGiftBatchAnswer = z.object({
  id: z.string(),
  planId: z.string().nullable(),
  planName: z.string(),
  count: z.number().int(),
  redeemed: z.number().int(),
  revoked: z.number().int(),
  note: z.string().nullable(),
  createdAt: z.string(),
}) satisfies z.ZodType<AdminGiftBatch>;

/** `GET /api/admin/gift-codes`. */
export const AdminGiftBatchListAnswer = z.array(AdminGiftBatchAnswer);

/** `POST /api/admin/gift-codes` → 201: the batch and its codes (shown once; the CSV has them again). */
export const GiftBatchCreatedAnswer = z.object({ batch: AdminGiftBatchAnswer, codes: z.array(z.string()) }) satisfies z.ZodType<GiftBatchCreated>;
