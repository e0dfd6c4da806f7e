/**
 * `POST /v3/refunds` and the refunds it makes. Only a succeeded payment can be refunded, in its currency,
 * partly and more than once, never beyond what remains (pending refunds count against it). A refund
 * succeeds at once unless scripted `pending` through the handle; `refund.succeeded` is its only notification
 * (YooKassa has no `refund.canceled`).
 */
import { amountOf, parseAmount, type Money } from './amounts.js';
import { isoTime, type FakeClock } from './clock.js';
import { invalidParameter, invalidRequest, notFound } from './http.js';
import { objectId } from './ids.js';
import type { Notice, Payments } from './payments.js';
import { checkReceiptFor } from './receipts.js';
import { optionalString, parseMetadata } from './request-fields.js';
import type { CancellationDetails, RefundStatus, YookassaRefund } from './yookassa-objects.js';

const DESCRIPTION_MAX_LENGTH = 250;

export interface RefundRecord {
  id: string;
  paymentId: string;
  status: RefundStatus;
  amount: Money;
  createdAt: number;
  description?: string;
  metadata?: Record<string, string>;
  receiptRegistration?: 'pending' | 'succeeded' | 'canceled';
  cancellation?: CancellationDetails;
}

export function refundObject(record: RefundRecord): YookassaRefund {
  const refund: YookassaRefund = {
    id: record.id,
    payment_id: record.paymentId,
    status: record.status,
    created_at: isoTime(record.createdAt),
    amount: amountOf(record.amount.minor, record.amount.currency),
  };
  if (record.cancellation) refund.cancellation_details = { ...record.cancellation };
  if (record.receiptRegistration) refund.receipt_registration = record.receiptRegistration;
  if (record.description !== undefined) refund.description = record.description;
  if (record.metadata) refund.metadata = { ...record.metadata };
  return refund;
}

export function createRefunds(deps: { clock: FakeClock; payments: Payments; fiscalization: boolean }) {
  const records: RefundRecord[] = [];
  const byId = new Map<string, RefundRecord>();
  const scripted: Array<'succeeded' | 'pending'> = [];

  const pendingMinor = (paymentId: string): number =>
    records.filter((r) => r.paymentId === paymentId && r.status === 'pending').reduce((sum, r) => sum + r.amount.minor, 0);

  function succeed(record: RefundRecord): Notice[] {
    record.status = 'succeeded';
    if (record.receiptRegistration) record.receiptRegistration = 'succeeded';
    deps.payments.addRefunded(record.paymentId, record.amount.minor);
    return [{ event: 'refund.succeeded', object: refundObject(record) }];
  }

  return {
    get: (id: string): RefundRecord | undefined => byId.get(id),
    /** Oldest first. */
    all: (): readonly RefundRecord[] => records,

    find(id: string): RefundRecord {
      const record = byId.get(id);
      if (!record) throw notFound('Refund not found or forbidden');
      return record;
    },

    /** Checks the body as YooKassa does, then refunds (at once, or pending when scripted so). */
    create(body: Record<string, unknown>): { record: RefundRecord; notices: Notice[] } {
      if (typeof body.payment_id !== 'string' || body.payment_id === '') throw invalidParameter('payment_id');
      const amount = parseAmount(body.amount);
      const description = optionalString(body.description, 'description', DESCRIPTION_MAX_LENGTH);
      const metadata = parseMetadata(body.metadata);
      const hasReceipt = checkReceiptFor(body.receipt, amount, deps.fiscalization);

      const payment = deps.payments.get(body.payment_id);
      if (!payment) throw invalidRequest('Payment not found or forbidden', 'payment_id');
      if (payment.status !== 'succeeded') throw invalidRequest('Payment can not be refunded in current status.', 'payment_id');
      if (amount.currency !== payment.amount.currency) throw invalidRequest('Currencies do not match', 'amount.currency');
      const remaining = payment.amount.minor - payment.refundedMinor - pendingMinor(payment.id);
      if (remaining <= 0) throw invalidRequest('Payment is already completely refunded', 'amount');
      if (amount.minor > remaining) throw invalidRequest('Refund sum exceeded', 'amount');

      const now = deps.clock.now();
      const record: RefundRecord = { id: objectId('refund', now), paymentId: payment.id, status: 'pending', amount, createdAt: now };
      if (description !== undefined) record.description = description;
      if (metadata) record.metadata = metadata;
      if (hasReceipt && deps.fiscalization) record.receiptRegistration = 'pending';
      records.push(record);
      byId.set(record.id, record);
      const outcome = scripted.shift() ?? 'succeeded';
      return { record, notices: outcome === 'succeeded' ? succeed(record) : [] };
    },

    /** How the next refunds end, in order; unscripted ones succeed at once. */
    script(outcomes: Array<'succeeded' | 'pending'>): void {
      scripted.push(...outcomes);
    },

    /** A pending refund ends. Canceled: the money stays with the shop, and nobody is notified. */
    settle(id: string, outcome: 'succeeded' | 'canceled'): Notice[] {
      const record = byId.get(id);
      if (!record || record.status !== 'pending') throw new Error(`fake YooKassa: refund ${id} is ${record?.status ?? 'unknown'}, not pending`);
      if (outcome === 'succeeded') return succeed(record);
      record.status = 'canceled';
      record.cancellation = { party: 'yoo_money', reason: 'general_decline' };
      if (record.receiptRegistration) record.receiptRegistration = 'canceled';
      return [];
    },
  };
}

export type Refunds = ReturnType<typeof createRefunds>;
