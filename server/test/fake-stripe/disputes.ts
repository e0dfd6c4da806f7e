import type Stripe from 'stripe';
import type { ChargeObject } from './payment-objects.js';
import { CARD } from './payment-methods.js';
import { stripeId } from './stripe-ids.js';

/** A Dispute exactly as the SDK types it. */
export type DisputeObject = Stripe.Dispute;

/** The reasons a cardholder's bank gives for a dispute. */
export type DisputeReason =
  | 'bank_cannot_process'
  | 'check_returned'
  | 'credit_not_processed'
  | 'customer_initiated'
  | 'debit_not_authorized'
  | 'duplicate'
  | 'fraudulent'
  | 'general'
  | 'incorrect_account_details'
  | 'insufficient_funds'
  | 'noncompliant'
  | 'product_not_received'
  | 'product_unacceptable'
  | 'subscription_canceled'
  | 'unrecognized';

/** How a dispute ends in the fake (Stripe also has `warning_closed` and `prevented`, for inquiries). */
export type DisputeOutcome = 'won' | 'lost';

/** Stripe's fee for a dispute in USD; the fake charges it in the dispute's currency. */
const DISPUTE_FEE = 1500;
/** The time a merchant has to answer a dispute with evidence. */
const EVIDENCE_WINDOW_SECONDS = 21 * 24 * 60 * 60;
/** Visa's reason codes for the reasons a test usually picks. */
const VISA_REASON_CODES: Partial<Record<DisputeReason, string>> = {
  fraudulent: '10.4',
  product_not_received: '13.1',
  duplicate: '12.6.1',
  credit_not_processed: '13.6',
  subscription_canceled: '13.2',
};

/** A chargeback opened by the cardholder's bank: status needs_response, the amount (and a fee) withdrawn. */
export function newDispute(charge: ChargeObject, options: { amount: number; reason: DisputeReason; created: number }): DisputeObject {
  const networkReasonCode = VISA_REASON_CODES[options.reason] ?? null;
  const cardDetails = charge.payment_method_details?.type === CARD;
  return {
    id: stripeId('dp_1', 24),
    object: 'dispute',
    amount: options.amount,
    balance_transactions: [disputeTransaction(-options.amount, DISPUTE_FEE, charge.currency, options.created, 'dispute')],
    charge: charge.id,
    created: options.created,
    currency: charge.currency,
    enhanced_eligibility_types: [],
    evidence: emptyEvidence(),
    evidence_details: {
      due_by: options.created + EVIDENCE_WINDOW_SECONDS,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: 'not_submitted',
    },
    intended_submission_method: null,
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    network_reason_code: networkReasonCode,
    payment_intent: typeof charge.payment_intent === 'string' ? charge.payment_intent : (charge.payment_intent?.id ?? null),
    ...(cardDetails
      ? { payment_method_details: { type: 'card', card: { brand: 'visa', case_type: 'chargeback', network: 'visa', network_reason_code: networkReasonCode } } }
      : {}),
    reason: options.reason,
    status: 'needs_response',
  };
}

/**
 * Closes a dispute. Won: the amount comes back (a second balance transaction; the fee does not). Lost: the money stays
 * withdrawn — the charge is not marked refunded, as at Stripe. Returns the status it had.
 */
export function closeDisputeObject(dispute: DisputeObject, outcome: DisputeOutcome, now: number): DisputeObject['status'] {
  const previous = dispute.status;
  dispute.status = outcome;
  if (outcome === 'won') {
    dispute.balance_transactions.push(disputeTransaction(dispute.amount, 0, dispute.currency, now, 'dispute_reversal'));
  }
  return previous;
}

function disputeTransaction(
  amount: number,
  fee: number,
  currency: string,
  created: number,
  reportingCategory: 'dispute' | 'dispute_reversal',
): Stripe.BalanceTransaction {
  return {
    id: stripeId('txn_1', 24),
    object: 'balance_transaction',
    amount,
    available_on: created,
    balance_type: 'payments',
    created,
    currency,
    description: reportingCategory === 'dispute' ? 'Chargeback withdrawal' : 'Chargeback reversal',
    exchange_rate: null,
    fee,
    fee_details: fee === 0 ? [] : [{ amount: fee, application: null, currency, description: 'Dispute fee', type: 'stripe_fee' }],
    net: amount - fee,
    reporting_category: reportingCategory,
    source: null,
    status: 'available',
    type: 'adjustment',
  };
}

function emptyEvidence(): DisputeObject['evidence'] {
  return {
    access_activity_log: null,
    billing_address: null,
    cancellation_policy: null,
    cancellation_policy_disclosure: null,
    cancellation_rebuttal: null,
    customer_communication: null,
    customer_email_address: null,
    customer_name: null,
    customer_purchase_ip: null,
    customer_signature: null,
    duplicate_charge_documentation: null,
    duplicate_charge_explanation: null,
    duplicate_charge_id: null,
    enhanced_evidence: {},
    product_description: null,
    receipt: null,
    refund_policy: null,
    refund_policy_disclosure: null,
    refund_refusal_explanation: null,
    service_date: null,
    service_documentation: null,
    shipping_address: null,
    shipping_carrier: null,
    shipping_date: null,
    shipping_documentation: null,
    shipping_tracking_number: null,
    uncategorized_file: null,
    uncategorized_text: null,
  };
}
