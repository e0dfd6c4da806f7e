/**
 * The shop's payments and the moves YooKassa makes them through:
 *   pending → waiting_for_capture (capture false) → succeeded (capture) or canceled (cancel, or the capture deadline)
 *   pending → succeeded (capture true), or canceled (declined, or the hour to confirm ran out).
 * A saved-method charge skips the page: it ends at once as scripted (see payment-methods.ts), or stays
 * pending until `settle`. Every move returns the notifications it causes, carrying the payment as it then is.
 */
import { parseAmount } from './amounts.js';
import type { FakeClock } from './clock.js';
import { invalidRequest, notFound } from './http.js';
import { digits, objectId } from './ids.js';
import { paidMethod, partyOf, type ChargeOutcome, type PaymentMethods } from './payment-methods.js';
import { paymentObject, type PaymentRecord } from './payment-object.js';
import type { CreatePaymentRequest, ShopMethod } from './payment-request.js';
import { checkReceipt } from './receipts.js';
import { optionalObject } from './request-fields.js';
import type { NotificationEvent, YookassaPayment, YookassaRefund } from './yookassa-objects.js';

export type { PaymentRecord } from './payment-object.js';

/** How long a customer has to confirm a redirect payment (YooKassa: one hour for cards, wallets and SBP). */
export const CONFIRMATION_WINDOW_MS = 60 * 60 * 1000;
/** How long a two-stage payment waits for capture: 7 days for cards, 6 hours for other methods. */
const CAPTURE_WINDOW_MS = { bank_card: 7 * 24 * 60 * 60 * 1000, other: 6 * 60 * 60 * 1000 };

/** A notification to send: the event and the object as it was when it happened. */
export interface Notice {
  event: NotificationEvent;
  object: YookassaPayment | YookassaRefund;
}

export interface PaymentsDeps {
  clock: FakeClock;
  shopId: string;
  fiscalization: boolean;
  methods: PaymentMethods;
  /** The confirmation page of a payment (`confirmation.confirmation_url`). */
  confirmationUrl(paymentId: string): string;
}

/** Handle misuse (paying a finished payment, say) is a test's mistake: a plain Error, not an API answer. */
const misuse = (message: string): Error => new Error(`fake YooKassa: ${message}`);

export function createPayments(deps: PaymentsDeps) {
  const { clock, methods } = deps;
  const records: PaymentRecord[] = [];
  const byId = new Map<string, PaymentRecord>();

  const present = (record: PaymentRecord): YookassaPayment => paymentObject(record, deps.shopId, deps.confirmationUrl(record.id));
  const noticeOf = (record: PaymentRecord, event: NotificationEvent): Notice[] => [{ event, object: present(record) }];

  function markPaid(record: PaymentRecord): Notice[] {
    const now = clock.now();
    if (record.method?.type === 'bank_card')
      record.authorization = { rrn: digits(12), auth_code: digits(6), three_d_secure: { applied: record.request.confirmation !== undefined } };
    if (record.request.capture) {
      record.status = 'succeeded';
      record.capturedAt = now;
      if (record.receiptRegistration) record.receiptRegistration = 'succeeded';
      return noticeOf(record, 'payment.succeeded');
    }
    record.status = 'waiting_for_capture';
    record.expiresAt = now + (record.method?.type === 'bank_card' ? CAPTURE_WINDOW_MS.bank_card : CAPTURE_WINDOW_MS.other);
    return noticeOf(record, 'payment.waiting_for_capture');
  }

  function markCanceled(record: PaymentRecord, party: string, reason: string): Notice[] {
    record.status = 'canceled';
    record.cancellation = { party, reason };
    delete record.expiresAt;
    if (record.receiptRegistration) record.receiptRegistration = 'canceled';
    return noticeOf(record, 'payment.canceled');
  }

  /** A saved-method charge ends as its outcome says ('pending' leaves it for `settle`). */
  function finishCharge(record: PaymentRecord, outcome: ChargeOutcome): Notice[] {
    if (outcome === 'pending') return [];
    methods.ended(record.method!.id, outcome);
    return outcome === 'succeeded' ? markPaid(record) : markCanceled(record, partyOf(outcome), outcome);
  }

  /** For the API: 404 as YooKassa answers an unknown (or another shop's) payment. */
  function find(id: string): PaymentRecord {
    const record = byId.get(id);
    if (!record) throw notFound('Payment not found or forbidden');
    return record;
  }

  /** For the handle and the page: a payment still waiting for its customer. */
  function awaitingCustomer(id: string): PaymentRecord {
    const record = byId.get(id);
    if (!record) throw misuse(`no payment ${id}`);
    if (record.status !== 'pending' || !record.request.confirmation)
      throw misuse(`payment ${id} is ${record.status}${record.request.confirmation ? '' : ' and has no confirmation'}: nothing to pay`);
    return record;
  }

  return {
    get: (id: string): PaymentRecord | undefined => byId.get(id),
    /** Oldest first. */
    all: (): readonly PaymentRecord[] => records,
    present,
    find,

    /** Records a checked request; a saved-method charge is carried out at once. */
    create(request: CreatePaymentRequest): { record: PaymentRecord; notices: Notice[] } {
      const charged = request.paymentMethodId === undefined ? undefined : methods.forCharge(request.paymentMethodId);
      const now = clock.now();
      const record: PaymentRecord = { id: objectId('payment', now), status: 'pending', amount: request.amount, request, createdAt: now, refundedMinor: 0 };
      if (request.hasReceipt && deps.fiscalization) record.receiptRegistration = 'pending';
      if (request.presetMethod) record.method = { type: request.presetMethod, id: record.id, saved: false, status: 'pending' };
      records.push(record);
      byId.set(record.id, record);
      if (!charged) return { record, notices: [] };
      record.method = charged;
      return { record, notices: finishCharge(record, methods.nextOutcome(charged.id)) };
    },

    /** The customer pays on the page with `type` (the preset one, when the payment was created with one). */
    pay(id: string, type?: ShopMethod): Notice[] {
      const record = awaitingCustomer(id);
      const preset = record.request.presetMethod;
      if (type && preset && type !== preset) throw misuse(`payment ${id} was created for ${preset}, not ${type}`);
      const method = paidMethod(type ?? preset ?? 'bank_card', record.id, record.request.savePaymentMethod, new Date(clock.now()).getUTCFullYear());
      methods.remember(method);
      record.method = method;
      return markPaid(record);
    },

    /** The customer's bank declines the card (or the preset method): canceled with `reason`. */
    decline(id: string, reason: string): Notice[] {
      const record = awaitingCustomer(id);
      const method = paidMethod(record.request.presetMethod ?? 'bank_card', record.id, false, new Date(clock.now()).getUTCFullYear());
      methods.remember(method);
      record.method = method;
      return markCanceled(record, partyOf(reason), reason);
    },

    /** The time to confirm ran out. */
    expireConfirmation(id: string): Notice[] {
      const record = byId.get(id);
      if (!record || record.status !== 'pending') throw misuse(`payment ${id} is ${record?.status ?? 'unknown'}, not pending`);
      return markCanceled(record, 'yoo_money', 'expired_on_confirmation');
    },

    /** The bank answers a pending saved-method charge. */
    settle(id: string, outcome: ChargeOutcome): Notice[] {
      const record = byId.get(id);
      if (!record || record.status !== 'pending' || record.request.paymentMethodId === undefined) {
        throw misuse(`payment ${id} is not a pending saved-method charge (use pay, decline or expire for one awaiting its customer)`);
      }
      if (outcome === 'pending') throw misuse('settle needs a final outcome');
      return finishCharge(record, outcome);
    },

    /** `POST /payments/{id}/capture`: all of it, or a smaller `amount` (the rest goes back to the customer). */
    capture(id: string, body: Record<string, unknown>): Notice[] {
      const record = find(id);
      const amount = body.amount === undefined ? record.amount : parseAmount(body.amount);
      const receipt = optionalObject(body.receipt, 'receipt');
      if (receipt) checkReceipt(receipt, amount);
      if (record.status !== 'waiting_for_capture') {
        throw invalidRequest(record.request.capture ? 'You can not capture payment with autocapture' : 'Payment can not be captured in current status.');
      }
      if (amount.currency !== record.amount.currency || amount.minor > record.amount.minor) throw invalidRequest('Illegal amount for capture', 'amount');
      record.amount = amount;
      record.status = 'succeeded';
      record.capturedAt = clock.now();
      delete record.expiresAt;
      if (record.receiptRegistration) record.receiptRegistration = 'succeeded';
      return noticeOf(record, 'payment.succeeded');
    },

    /** `POST /payments/{id}/cancel`: only a two-stage payment waiting for capture. */
    cancel(id: string): Notice[] {
      const record = find(id);
      if (record.request.capture) throw invalidRequest('You can not cancel payment with autocapture');
      if (record.status !== 'waiting_for_capture') throw invalidRequest('Payment can not be canceled in current status');
      return markCanceled(record, 'merchant', 'canceled_by_merchant');
    },

    /** What YooKassa's timers do by `now`: unconfirmed payments expire after an hour, uncaptured ones at `expires_at`. */
    expireDue(): Notice[] {
      const now = clock.now();
      return records.flatMap((record) => {
        if (record.status === 'pending' && record.request.confirmation && now - record.createdAt >= CONFIRMATION_WINDOW_MS) {
          return markCanceled(record, 'yoo_money', 'expired_on_confirmation');
        }
        if (record.status === 'waiting_for_capture' && record.expiresAt !== undefined && now >= record.expiresAt) {
          return markCanceled(record, 'yoo_money', 'expired_on_capture');
        }
        return [];
      });
    },

    addRefunded(id: string, minor: number): void {
      byId.get(id)!.refundedMinor += minor;
    },
  };
}

export type Payments = ReturnType<typeof createPayments>;
