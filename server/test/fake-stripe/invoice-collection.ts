/**
 * Charging an invoice to the customer's card: a PaymentIntent and its Charge per attempt, recorded as one of the
 * invoice's payments. While `setCardDeclines` says so, the customer's card is declined (insufficient funds).
 */
import type Stripe from 'stripe';
import type { CustomerObject } from './customers.js';
import { createInvoicePayments, type InvoicePayments } from './invoice-payments.js';
import type { InvoiceObject } from './invoices.js';
import type { PaymentLedger } from './payment-ledger.js';
import { settleFailed } from './payment-objects.js';
import { CARD } from './payment-methods.js';

export interface InvoiceCollection {
  /**
   * Charges the customer's card for the invoice's amount due; returns whether it paid (the invoice itself is not
   * changed). `freshCard`: the card was just entered at checkout, so it pays even while the customer's card declines.
   */
  charge(invoice: InvoiceObject, customer: CustomerObject, now: number, options?: { freshCard?: boolean }): boolean;
  setCardDeclines(customerId: string, declines: boolean): void;
  /** Whether the customer's card declines now (`setCardDeclines`). */
  declines(customerId: string): boolean;
  readonly payments: InvoicePayments;
}

export function createInvoiceCollection(ledger: PaymentLedger): InvoiceCollection {
  const declining = new Set<string>();
  const payments = createInvoicePayments(ledger);
  return {
    charge(invoice, customer, now, options = {}) {
      // Nothing due (a 100 % coupon, a balance that covers it): Stripe marks the invoice paid without a payment.
      if (invoice.amount_due === 0) return true;
      const paymentIntent = ledger.startPayment({
        amount: invoice.amount_due,
        currency: invoice.currency,
        methodType: CARD,
        email: customer.email,
        metadata: {},
        description: invoice.billing_reason === 'subscription_create' ? 'Subscription creation' : 'Subscription update',
        created: now,
      });
      paymentIntent.customer = customer.id;
      const charge = ledger.charge(paymentIntent.latest_charge as string)!;
      charge.customer = customer.id;
      payments.record(invoice.id, paymentIntent.id, now);
      if (options.freshCard || !declining.has(customer.id)) return true;
      declineCard(paymentIntent, charge);
      return false;
    },
    setCardDeclines(customerId, declines) {
      if (declines) declining.add(customerId);
      else declining.delete(customerId);
    },
    declines: (customerId) => declining.has(customerId),
    payments,
  };
}

/** A card payment declined by the issuer (`card_declined`, decline code insufficient_funds), as Stripe reports it. */
function declineCard(paymentIntent: Stripe.PaymentIntent, charge: Stripe.Charge): void {
  settleFailed(paymentIntent, charge);
  paymentIntent.amount_received = 0;
  paymentIntent.last_payment_error = {
    charge: charge.id,
    code: 'card_declined',
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
    type: 'card_error',
  };
  charge.captured = false;
  charge.failure_code = 'card_declined';
  charge.failure_message = 'Your card has insufficient funds.';
}
