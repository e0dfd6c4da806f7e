/**
 * The fake's invoices and how they move, after BTCPay's InvoiceWatcher (HostedServices/InvoiceWatcher.cs):
 *
 * - a payment is recorded unconfirmed (InvoiceReceivedPayment); a New invoice paid in full becomes Processing
 *   (InvoiceProcessing), one paid in part stays New with PaidPartial;
 * - when its payments confirm (InvoicePaymentSettled each), a Processing invoice becomes Settled (InvoiceSettled);
 * - a New invoice expires (InvoiceExpired, plus InvoiceExpiredPaidPartial when partly paid);
 * - an Expired invoice paid in full afterwards stays Expired with additionalStatus PaidLate and fires
 *   InvoicePaidAfterExpiration — BTCPay never settles it, nor sends InvoiceSettled for it: its payments'
 *   own status (Processing → Settled, with InvoicePaymentSettled afterExpiration true) is all that moves;
 * - the operator (or the API) marks an invoice Settled or Invalid (additionalStatus Marked; InvoiceSettled or
 *   InvoiceInvalid with manuallyMarked).
 * Nothing happens by the clock: invoices expire only through `expire`.
 */
import { BTC_RATE, fiatFor, formatBtc, formatMinor, satsFor } from './amounts.js';
import type { InvoiceAdditionalStatus, InvoiceObject, InvoiceStatus, PaymentMethodObject, PaymentObject, PaymentStatus } from './greenfield-objects.js';
import { base58Id, fakeAddress, fakePaymentId, nowSeconds } from './ids.js';
import type { InvoiceRequest } from './invoice-request.js';

/** The webhook event types the fake sends for invoices. */
export type InvoiceEventType =
  | 'InvoiceCreated'
  | 'InvoiceReceivedPayment'
  | 'InvoiceProcessing'
  | 'InvoicePaymentSettled'
  | 'InvoiceSettled'
  | 'InvoiceExpired'
  | 'InvoiceExpiredPaidPartial'
  | 'InvoicePaidAfterExpiration'
  | 'InvoiceInvalid'
  | 'InvoiceRefund';

/** Something that happened to an invoice, before it becomes a webhook delivery: its type-specific fields. */
export interface InvoiceEvent {
  type: InvoiceEventType;
  storeId: string;
  invoiceId: string;
  metadata: Record<string, unknown>;
  fields: Record<string, unknown>;
}

export const PAYMENT_METHOD_ID = 'BTC-CHAIN';

interface PaymentRecord {
  id: string;
  receivedDate: number;
  sats: number;
  status: PaymentStatus;
}

export interface InvoiceRecord {
  id: string;
  storeId: string;
  currency: string;
  digits: number;
  /** The price in minor units of `currency`. */
  price: number;
  /** The price in satoshis at the fake's rate. */
  priceSats: number;
  createdTime: number;
  expirationTime: number;
  monitoringExpiration: number;
  status: InvoiceStatus;
  additionalStatus: InvoiceAdditionalStatus;
  metadata: Record<string, unknown>;
  checkout: InvoiceRequest['checkout'];
  destination: string;
  payments: PaymentRecord[];
}

const paidSats = (invoice: InvoiceRecord): number => invoice.payments.filter((p) => p.status !== 'Invalid').reduce((sum, p) => sum + p.sats, 0);

/** Satoshis still to pay (0 when paid in full or over). */
export const dueSats = (invoice: InvoiceRecord): number => Math.max(0, invoice.priceSats - paidSats(invoice));

/** InvoiceEntity.CanMarkComplete. */
const canMarkSettled = (i: InvoiceRecord): boolean =>
  ['New', 'Processing', 'Expired', 'Invalid'].includes(i.status) || (i.status !== 'Settled' && i.additionalStatus === 'Marked');

/** InvoiceEntity.CanMarkInvalid. */
const canMarkInvalid = (i: InvoiceRecord): boolean =>
  ['New', 'Processing', 'Expired'].includes(i.status) || (i.status !== 'Invalid' && i.additionalStatus === 'Marked');

/** InvoiceEntity.CanRefund. */
export const canRefund = (i: InvoiceRecord): boolean =>
  i.status === 'Settled' || i.status === 'Invalid' || (i.status === 'Expired' && ['PaidLate', 'PaidOver', 'PaidPartial'].includes(i.additionalStatus));

/** The fiat value paid so far, in minor units (BTCPay's `paidAmount`). */
export const paidFiat = (invoice: InvoiceRecord): number => fiatFor(paidSats(invoice), invoice.digits);

function paymentObject(invoice: InvoiceRecord, payment: PaymentRecord): PaymentObject {
  return {
    id: payment.id,
    receivedDate: payment.receivedDate,
    value: formatBtc(payment.sats),
    fee: formatBtc(0),
    status: payment.status,
    destination: invoice.destination,
  };
}

/** InvoiceData, as `GET …/invoices/{id}` answers it; `checkoutLink` from the fake's address. */
export function invoiceObject(invoice: InvoiceRecord, checkoutLink: string): InvoiceObject {
  const available: InvoiceStatus[] = [];
  if (canMarkSettled(invoice)) available.push('Settled');
  if (canMarkInvalid(invoice)) available.push('Invalid');
  return structuredClone({
    id: invoice.id,
    storeId: invoice.storeId,
    amount: formatMinor(invoice.price, invoice.digits),
    paidAmount: formatMinor(paidFiat(invoice), invoice.digits),
    currency: invoice.currency,
    type: 'Standard',
    checkoutLink,
    createdTime: invoice.createdTime,
    expirationTime: invoice.expirationTime,
    monitoringExpiration: invoice.monitoringExpiration,
    status: invoice.status,
    additionalStatus: invoice.additionalStatus,
    availableStatusesForManualMarking: available,
    archived: false,
    metadata: invoice.metadata,
    checkout: invoice.checkout,
    receipt: { enabled: true, showQR: true, showPayments: true },
  });
}

/** The invoice's one payment method (on-chain BTC at the fake's rate), as `GET …/payment-methods` answers it. */
export function paymentMethodObject(invoice: InvoiceRecord): PaymentMethodObject {
  const paid = paidSats(invoice);
  return {
    activated: true,
    paymentMethodId: PAYMENT_METHOD_ID,
    currency: 'BTC',
    destination: invoice.destination,
    paymentLink: `bitcoin:${invoice.destination}?amount=${formatBtc(dueSats(invoice))}`,
    rate: String(BTC_RATE),
    paymentMethodPaid: formatBtc(paid),
    totalPaid: formatBtc(paid),
    due: formatBtc(invoice.priceSats - paid),
    amount: formatBtc(invoice.priceSats),
    paymentMethodFee: formatBtc(0),
    payments: invoice.payments.map((p) => paymentObject(invoice, p)),
    additionalData: { keyPath: '0/1', payjoinEnabled: false, recommendedFeeRate: '1', paymentMethodFeeRate: '0' },
  };
}

/** `{InvoiceId}`, `{OrderId}` and `{Status}` filled into the redirect template (any case), or null unless absolute http(s). */
export function redirectUrlOf(invoice: InvoiceRecord): string | null {
  const template = invoice.checkout.redirectURL;
  if (!template) return null;
  const orderId = typeof invoice.metadata.orderId === 'string' ? invoice.metadata.orderId : '';
  const filled = template
    .replace(/\{OrderId\}/gi, encodeURIComponent(orderId))
    .replace(/\{InvoiceId\}/gi, encodeURIComponent(invoice.id))
    .replace(/\{Status\}/gi, invoice.status);
  try {
    const url = new URL(filled);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** The invoices of one store, and what payments, time and the operator do to them (each returns its events, in order). */
export function createInvoices(storeId: string) {
  const invoices = new Map<string, InvoiceRecord>();

  const event = (invoice: InvoiceRecord, type: InvoiceEventType, fields: Record<string, unknown> = {}): InvoiceEvent => ({
    type,
    storeId,
    invoiceId: invoice.id,
    metadata: structuredClone(invoice.metadata),
    fields: structuredClone(fields),
  });

  function mustGet(id: string): InvoiceRecord {
    const invoice = invoices.get(id);
    if (!invoice) throw new Error(`fake BTCPay: no invoice ${id}`);
    return invoice;
  }

  /** InvoiceWatcher.UpdateInvoice after a payment was seen or confirmed. */
  function update(invoice: InvoiceRecord): InvoiceEvent[] {
    const events: InvoiceEvent[] = [];
    const paid = paidSats(invoice);
    const underPaid = paid < invoice.priceSats;
    if (invoice.status === 'New' || invoice.status === 'Expired') {
      if (!underPaid) {
        if (invoice.status === 'New') {
          invoice.status = 'Processing';
          invoice.additionalStatus = paid > invoice.priceSats ? 'PaidOver' : 'None';
          events.push(event(invoice, 'InvoiceProcessing', { overPaid: invoice.additionalStatus === 'PaidOver' }));
        } else if (invoice.additionalStatus !== 'PaidLate') {
          invoice.additionalStatus = 'PaidLate';
          events.push(event(invoice, 'InvoicePaidAfterExpiration'));
        }
      }
      if (paid > 0 && underPaid) invoice.additionalStatus = 'PaidPartial';
    }
    if (invoice.status === 'Processing' && invoice.payments.every((p) => p.status !== 'Processing')) {
      invoice.status = 'Settled';
      events.push(event(invoice, 'InvoiceSettled', { manuallyMarked: false, overPaid: invoice.additionalStatus === 'PaidOver' }));
    }
    return events;
  }

  const paymentFields = (invoice: InvoiceRecord, payment: PaymentRecord) => ({
    afterExpiration: invoice.status === 'Expired' || invoice.status === 'Invalid',
    paymentMethodId: PAYMENT_METHOD_ID,
    payment: paymentObject(invoice, payment),
  });

  /** Every unconfirmed payment confirms (InvoicePaymentSettled each), then the invoice is updated. */
  function confirm(id: string): InvoiceEvent[] {
    const invoice = mustGet(id);
    const events: InvoiceEvent[] = [];
    for (const payment of invoice.payments.filter((p) => p.status === 'Processing')) {
      payment.status = 'Settled';
      events.push(event(invoice, 'InvoicePaymentSettled', paymentFields(invoice, payment)));
    }
    return [...events, ...update(invoice)];
  }

  return {
    create(request: InvoiceRequest): InvoiceRecord {
      const now = nowSeconds();
      const expirationTime = now + Math.round(request.checkout.expirationMinutes * 60);
      const invoice: InvoiceRecord = {
        id: base58Id(16),
        storeId,
        currency: request.currency,
        digits: request.digits,
        price: request.price,
        priceSats: satsFor(request.price, request.digits),
        createdTime: now,
        expirationTime,
        monitoringExpiration: expirationTime + Math.round(request.checkout.monitoringMinutes * 60),
        status: 'New',
        additionalStatus: 'None',
        metadata: request.metadata,
        checkout: request.checkout,
        destination: fakeAddress(),
        payments: [],
      };
      invoices.set(invoice.id, invoice);
      return invoice;
    },

    createdEvent: (invoice: InvoiceRecord): InvoiceEvent => event(invoice, 'InvoiceCreated'),

    get: (id: string): InvoiceRecord | undefined => invoices.get(id),

    all: (): InvoiceRecord[] => [...invoices.values()],

    /**
     * A payment of `sats` reaches the invoice's address (New, or Expired: a late payment), unconfirmed:
     * InvoiceReceivedPayment, then what it changes; with `confirmed` (or under HighSpeed), its confirmation too.
     */
    receive(id: string, sats: number, confirmed: boolean): InvoiceEvent[] {
      const invoice = mustGet(id);
      if (invoice.status !== 'New' && invoice.status !== 'Expired')
        throw new Error(`fake BTCPay: invoice ${id} is ${invoice.status}, only a New or Expired one takes payments`);
      if (!(sats > 0)) throw new Error(`fake BTCPay: invoice ${id} has nothing left to pay`);
      const payment: PaymentRecord = { id: fakePaymentId(), receivedDate: nowSeconds(), sats, status: 'Processing' };
      invoice.payments.push(payment);
      const events = [event(invoice, 'InvoiceReceivedPayment', paymentFields(invoice, payment)), ...update(invoice)];
      // HighSpeed asks for no confirmation: the payment counts as settled as soon as it is seen.
      return confirmed || invoice.checkout.speedPolicy === 'HighSpeed' ? [...events, ...confirm(id)] : events;
    },

    confirm,

    /** A New invoice's time runs out. */
    expire(id: string): InvoiceEvent[] {
      const invoice = mustGet(id);
      if (invoice.status !== 'New') throw new Error(`fake BTCPay: invoice ${id} is ${invoice.status}, only a New one can expire`);
      invoice.status = 'Expired';
      invoice.expirationTime = Math.min(invoice.expirationTime, nowSeconds());
      const partiallyPaid = invoice.additionalStatus === 'PaidPartial';
      const events = [event(invoice, 'InvoiceExpired', { partiallyPaid })];
      if (partiallyPaid) events.push(event(invoice, 'InvoiceExpiredPaidPartial'));
      return events;
    },

    /** InvoiceRepository.MarkInvoiceStatus: null when BTCPay would refuse the mark in this state. */
    mark(id: string, status: 'Settled' | 'Invalid'): InvoiceEvent[] | null {
      const invoice = mustGet(id);
      if (!(status === 'Settled' ? canMarkSettled(invoice) : canMarkInvalid(invoice))) return null;
      invoice.status = status;
      invoice.additionalStatus = 'Marked';
      return [
        status === 'Settled'
          ? event(invoice, 'InvoiceSettled', { manuallyMarked: true, overPaid: false })
          : event(invoice, 'InvoiceInvalid', { manuallyMarked: true }),
      ];
    },

    refunded: (invoice: InvoiceRecord, pullPaymentId: string): InvoiceEvent => event(invoice, 'InvoiceRefund', { pullPaymentId }),

    paidSats,
  };
}

export type Invoices = ReturnType<typeof createInvoices>;
