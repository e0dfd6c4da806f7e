import { z } from 'zod';
import {
  REFUND_DESTINATIONS,
  SUBSCRIPTION_STATUSES,
  TRANSACTION_STATUSES,
  type AdminRevenue,
  type AdminSubscription,
  type AdminTransaction,
  type BillingPortalStarted,
  type CryptoProgress,
  type ProviderRead,
  type ProviderRevenue,
  type SavedPaymentMethod,
  type Subscription,
  type Transaction,
} from '../../../shared/billing.js';
import { PROVIDER_METHODS, TRANSACTION_METHODS } from '../../../shared/billing-schemas.js';
import { TRANSLATED_LOCALES } from '../../../shared/plan-translations.js';
import type { SavedMethodsService } from '../modules/billing/recurring/saved-methods.service.js';
import type { PaymentWebhooksService } from '../modules/billing/webhooks/payment-webhooks.service.js';

/**
 * What the billing routes answer (the customer's subscriptions, transactions and saved cards, the admin's
 * subscriptions, transactions and revenue, the webhooks' acknowledgement), as the serializer sends them and the
 * OpenAPI document describes them. Each is checked against the shared type the service returns. Amounts are
 * integer minor units of their currency; times are ISO strings. Checkout's are in checkout.ts,
 * the provider settings' in provider-accounts.ts.
 */

/** A minor-units amount or a count. */
const Int = z.number().int();

/** A card (or wallet) the customer let the store charge again. */
export const SavedPaymentMethodAnswer = z.object({
  id: z.string(),
  title: z.string(),
  createdAt: z.string(),
}) satisfies z.ZodType<SavedPaymentMethod>;

/** `DELETE /api/payment-methods/:id`: how many plans stopped renewing with it. */
export const SavedMethodRemovedAnswer = z.object({ stoppedRenewing: Int }) satisfies z.ZodType<Awaited<ReturnType<SavedMethodsService['remove']>>>;

/** An open crypto payment as the provider reports it; `status` and `additionalStatus` are the provider's own words. */
export const CryptoProgressAnswer = z.object({
  status: z.string(),
  additionalStatus: z.string(),
  amountDue: Int.nullable(),
  amountPaid: Int.nullable(),
}) satisfies z.ZodType<CryptoProgress>;

/** A plan's name in the languages it was translated into, as kept with an order. */
const PlanNamesAnswer = z.partialRecord(z.enum(TRANSLATED_LOCALES), z.string());

/** `GET /api/subscriptions`, and the answer of cancelling or resuming one. */
export const SubscriptionAnswer = z.object({
  id: z.string(),
  status: z.enum(SUBSCRIPTION_STATUSES),
  billing: z.enum(['one_off', 'recurring']),
  vpnAccountId: z.string().nullable(),
  planId: z.string().nullable(),
  planName: z.string(),
  planNames: PlanNamesAnswer.optional(),
  price: Int,
  currency: z.string(),
  providerName: z.string().nullable(),
  renewal: z.boolean(),
  autoRenews: z.boolean(),
  renewsAt: z.string().nullable(),
  renewalAmount: Int.nullable(),
  currentPeriodStart: z.string().nullable(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  canceledAt: z.string().nullable(),
  graceEndsAt: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  renewedHere: z.boolean(),
  savedMethod: SavedPaymentMethodAnswer.nullable(),
}) satisfies z.ZodType<Subscription>;

/** `GET /api/transactions`. */
export const TransactionAnswer = z.object({
  id: z.string(),
  subscriptionId: z.string(),
  status: z.enum(TRANSACTION_STATUSES),
  amount: Int,
  amountRefunded: Int,
  currency: z.string(),
  planName: z.string(),
  planNames: PlanNamesAnswer.optional(),
  renewal: z.boolean(),
  createdAt: z.string(),
  method: z.enum(TRANSACTION_METHODS),
  crypto: CryptoProgressAnswer.optional(),
  promo: z.object({ code: z.string(), amountBefore: Int, discount: Int }).optional(),
  giftCode: z.string().optional(),
  credit: Int.optional(),
  topUp: z.literal(true).optional(),
}) satisfies z.ZodType<Transaction>;

/** `POST /api/billing/portal`: where to send the browser. */
export const BillingPortalAnswer = z.object({ url: z.string() }) satisfies z.ZodType<BillingPortalStarted>;

/** How reading a live recurring subscription from its provider goes. */
export const ProviderReadAnswer = z.object({
  lastReadAt: z.string().nullable(),
  failures: Int,
  lastError: z.string().nullable(),
  nextTryAt: z.string(),
  failing: z.boolean(),
}) satisfies z.ZodType<ProviderRead>;

/** `GET /api/admin/subscriptions` (each), and the answer of the admin's cancel. */
export const AdminSubscriptionAnswer = SubscriptionAnswer.extend({
  userId: z.string(),
  userEmail: z.string().nullable(),
  vpnAccountUsername: z.string().nullable(),
  providerRead: ProviderReadAnswer.nullable(),
}) satisfies z.ZodType<AdminSubscription>;

/** `GET /api/admin/transactions` (each), and the answer of a refund (the transaction as it is now). */
export const AdminTransactionAnswer = TransactionAnswer.extend({
  userId: z.string(),
  userEmail: z.string().nullable(),
  refundable: z.boolean(),
  refundDestinations: z.array(z.enum(REFUND_DESTINATIONS)),
  note: z.string().nullable(),
  refundClaimUrl: z.string().nullable(),
}) satisfies z.ZodType<AdminTransaction>;

/** `GET /api/admin/payments/revenue`: money taken per provider and currency since `since`. */
export const AdminRevenueAnswer = z.object({
  days: Int,
  since: z.string(),
  rows: z.array(
    z.object({
      method: z.enum(PROVIDER_METHODS),
      currency: z.string(),
      payments: Int,
      amount: Int,
      refunded: Int,
      net: Int,
    }) satisfies z.ZodType<ProviderRevenue>,
  ),
}) satisfies z.ZodType<AdminRevenue>;

/** A payment provider's webhook, taken (`duplicate`: this event was applied before, so nothing was done again). */
export const WebhookReceivedAnswer = z.object({
  received: z.literal(true),
  duplicate: z.literal(true).optional(),
}) satisfies z.ZodType<Awaited<ReturnType<PaymentWebhooksService['handleWebhook']>>>;
