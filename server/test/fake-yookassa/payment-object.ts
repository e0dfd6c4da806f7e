/** A payment record as the API shows it (`YookassaPayment`): the one presenter for answers, lists, notifications and the handle. */
import { amountOf, type Money } from './amounts.js';
import { isoTime } from './clock.js';
import type { CreatePaymentRequest } from './payment-request.js';
import type { CancellationDetails, PaymentStatus, YookassaPayment, YookassaPaymentMethod } from './yookassa-objects.js';

export interface PaymentRecord {
  id: string;
  status: PaymentStatus;
  /** What the customer pays; after a partial capture, what was captured. */
  amount: Money;
  request: CreatePaymentRequest;
  createdAt: number;
  /** Set once known: the preset type while pending, the method paid (or declined) with, or the saved method charged. */
  method?: YookassaPaymentMethod;
  capturedAt?: number;
  /** waiting_for_capture: capture or cancel before this, or YooKassa cancels it (expired_on_capture). */
  expiresAt?: number;
  cancellation?: CancellationDetails;
  /** The sum of succeeded refunds. */
  refundedMinor: number;
  receiptRegistration?: 'pending' | 'succeeded' | 'canceled';
  authorization?: { rrn: string; auth_code: string; three_d_secure: { applied: boolean } };
}

/** The fake's fee, for `income_amount`: 3.5 %, rounded in the shop's favour (1.00 → 0.97, as in the docs' example). */
const feeOf = (minor: number): number => Math.floor((minor * 35) / 1000);

/** The recipient's gateway: YooKassa gives each shop one default sub-account with its own id. */
export const gatewayIdOf = (shopId: string): string => `1${shopId}`;

export function paymentObject(record: PaymentRecord, shopId: string, confirmationUrl: string): YookassaPayment {
  const { amount, request, status } = record;
  const payment: YookassaPayment = {
    id: record.id,
    status,
    amount: amountOf(amount.minor, amount.currency),
    recipient: { account_id: shopId, gateway_id: gatewayIdOf(shopId) },
    created_at: isoTime(record.createdAt),
    test: true,
    paid: status === 'waiting_for_capture' || status === 'succeeded',
    refundable: status === 'succeeded' && record.refundedMinor < amount.minor,
    metadata: { ...request.metadata },
  };
  if (status === 'succeeded') payment.income_amount = amountOf(amount.minor - feeOf(amount.minor), amount.currency);
  if (request.description !== undefined) payment.description = request.description;
  if (record.method) payment.payment_method = structuredClone(record.method);
  if (record.capturedAt !== undefined) payment.captured_at = isoTime(record.capturedAt);
  if (status === 'waiting_for_capture' && record.expiresAt !== undefined) payment.expires_at = isoTime(record.expiresAt);
  if (status === 'pending' && request.confirmation) {
    payment.confirmation = { type: 'redirect', confirmation_url: confirmationUrl, return_url: request.confirmation.returnUrl };
    if (request.confirmation.enforce !== undefined) payment.confirmation.enforce = request.confirmation.enforce;
    if (request.confirmation.locale !== undefined) payment.confirmation.locale = request.confirmation.locale;
  }
  if (status === 'succeeded') payment.refunded_amount = amountOf(record.refundedMinor, amount.currency);
  if (record.receiptRegistration) payment.receipt_registration = record.receiptRegistration;
  if (record.cancellation) payment.cancellation_details = { ...record.cancellation };
  if (record.authorization) payment.authorization_details = structuredClone(record.authorization);
  if (request.merchantCustomerId !== undefined) payment.merchant_customer_id = request.merchantCustomerId;
  return payment;
}
