import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import { CARD } from './payment-methods.js';
import { stripeId } from './stripe-ids.js';

/** A PaymentIntent exactly as the SDK types it. */
export type PaymentIntentObject = Stripe.PaymentIntent;

/**
 * A Charge exactly as the SDK types it. Like Stripe since API version 2022-11-15, `refunds` is absent unless
 * asked for with `expand[]=refunds` (see `chargeWithRefunds`).
 */
export type ChargeObject = Stripe.Charge;

/** What paying a Checkout Session makes a PaymentIntent and its Charge from. */
export interface PaymentInput {
  amount: number;
  currency: string;
  /** `card`, or the bank debit the customer chose (then the payment is processing until it settles). */
  methodType: string;
  /** The card number (a card payment; default Stripe's test Visa, 4242 4242 4242 4242). */
  card?: string;
  email: string | null;
  metadata: Record<string, string>;
  description: string | null;
  created: number;
}

const FAILURE_CODE = 'insufficient_funds';
const FAILURE_MESSAGE = "The customer's account has insufficient funds to cover this payment.";

/** The PaymentIntent of a paid session: succeeded for a card, processing for a bank debit. */
export function newPaymentIntent(input: PaymentInput, chargeId: string, paymentMethodId: string): PaymentIntentObject {
  const id = stripeId('pi_3', 24);
  const settled = input.methodType === CARD;
  return {
    id,
    object: 'payment_intent',
    allowed_payment_method_types: null,
    amount: input.amount,
    amount_capturable: 0,
    amount_received: settled ? input.amount : 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic_async',
    client_secret: `${id}_secret_${stripeId('', 25)}`,
    confirmation_method: 'automatic',
    created: input.created,
    currency: input.currency,
    customer: null,
    customer_account: null,
    description: input.description,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: chargeId,
    livemode: false,
    managed_payments: null,
    metadata: { ...input.metadata },
    next_action: null,
    on_behalf_of: null,
    payment_method: paymentMethodId,
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: [input.methodType],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: settled ? 'succeeded' : 'processing',
    transfer_group: null,
  };
}

/** The Charge behind a new PaymentIntent: succeeded for a card, pending for a bank debit. Metadata is the PaymentIntent's. */
export function newCharge(input: PaymentInput, ids: { charge: string; paymentIntent: string; paymentMethod: string }): ChargeObject {
  const settled = input.methodType === CARD;
  return {
    id: ids.charge,
    object: 'charge',
    amount: input.amount,
    amount_captured: input.amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: stripeId('txn_3', 24),
    billing_details: {
      address: { city: null, country: null, line1: null, line2: null, postal_code: null, state: null },
      email: input.email,
      name: null,
      phone: null,
      tax_id: null,
    },
    calculated_statement_descriptor: 'FAKE STRIPE',
    captured: true,
    created: input.created,
    currency: input.currency,
    customer: null,
    description: input.description,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    fraud_details: {},
    livemode: false,
    metadata: { ...input.metadata },
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: 'approved_by_network',
      reason: null,
      risk_level: 'normal',
      seller_message: 'Payment complete.',
      type: 'authorized',
    },
    paid: settled,
    payment_intent: ids.paymentIntent,
    payment_method: ids.paymentMethod,
    payment_method_details: paymentMethodDetails(input.methodType, input.amount, input.card ?? TEST_VISA),
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: settled ? 'succeeded' : 'pending',
    transfer_data: null,
    transfer_group: null,
  };
}

/** A bank debit settles: the Charge succeeds and is paid, the PaymentIntent succeeds. */
export function settleSucceeded(paymentIntent: PaymentIntentObject, charge: ChargeObject): void {
  charge.status = 'succeeded';
  charge.paid = true;
  paymentIntent.status = 'succeeded';
  paymentIntent.amount_received = paymentIntent.amount;
}

/** A bank debit fails: the Charge fails (nothing captured), the PaymentIntent wants another payment method. */
export function settleFailed(paymentIntent: PaymentIntentObject, charge: ChargeObject): void {
  charge.status = 'failed';
  charge.paid = false;
  charge.amount_captured = 0;
  charge.balance_transaction = null;
  charge.failure_code = FAILURE_CODE;
  charge.failure_message = FAILURE_MESSAGE;
  charge.outcome = {
    advice_code: null,
    network_advice_code: null,
    network_decline_code: null,
    network_status: 'declined_by_network',
    reason: FAILURE_CODE,
    seller_message: 'The bank returned the decline code `insufficient_funds`.',
    type: 'issuer_declined',
  };
  paymentIntent.status = 'requires_payment_method';
  paymentIntent.payment_method = null;
  paymentIntent.last_payment_error = {
    charge: charge.id,
    code: FAILURE_CODE,
    message: FAILURE_MESSAGE,
    type: 'invalid_request_error',
  };
}

/** `charge` with its refunds listed, newest first, as `expand[]=refunds` shows it. */
export function chargeWithRefunds(charge: ChargeObject, refunds: Stripe.Refund[]): ChargeObject {
  const data = refunds.filter((refund) => refund.charge === charge.id).reverse();
  return {
    ...charge,
    refunds: { object: 'list', data, has_more: false, url: `/v1/charges/${charge.id}/refunds` },
  };
}

const TEST_VISA = '4242424242424242';

/** Stripe's card fingerprint: 16 characters, the same for one card number within an account. */
export const cardFingerprint = (card: string) => createHash('sha256').update(card.replace(/\D/g, '')).digest('base64url').slice(0, 16);

function paymentMethodDetails(type: string, amount: number, card: string): Stripe.Charge.PaymentMethodDetails {
  if (type === CARD) {
    const digits = card.replace(/\D/g, '');
    return {
      type,
      card: {
        amount_authorized: amount,
        authorization_code: null,
        brand: 'visa',
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
        country: 'US',
        electronic_commerce_indicator: null,
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 3,
        funding: 'credit',
        installments: null,
        fingerprint: cardFingerprint(digits),
        last4: digits.slice(-4),
        mandate: null,
        network: 'visa',
        network_transaction_id: stripeId('', 15),
        regulated_status: 'unregulated',
        three_d_secure: null,
        transaction_link_id: null,
        wallet: null,
      },
    };
  }
  return { type };
}
