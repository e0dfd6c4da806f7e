/** Customers: `POST /v1/customers` parameters and the Customer object. */
import type Stripe from 'stripe';
import type { FormHash } from './form-body.js';
import { integerParam, listParam, metadataParam, optionalString, rejectUnknown } from './form-params.js';
import { invalidParam } from './stripe-errors.js';
import { stripeId } from './stripe-ids.js';

/** A Customer exactly as the SDK types it. */
export type CustomerObject = Stripe.Customer;

/** What `POST /v1/customers` may carry; the fake keeps email, name, description, metadata, preferred_locales and test_clock. */
const CREATE_PARAMS = new Set([
  'address',
  'balance',
  'business_name',
  'cash_balance',
  'description',
  'email',
  'expand',
  'individual_name',
  'invoice_prefix',
  'invoice_settings',
  'metadata',
  'name',
  'next_invoice_sequence',
  'payment_method',
  'phone',
  'preferred_locales',
  'shipping',
  'source',
  'tax',
  'tax_exempt',
  'tax_id_data',
  'test_clock',
  'validate',
]);

export interface CustomerCreateInput {
  email: string | null;
  name: string | null;
  description: string | null;
  metadata: Record<string, string>;
  testClock: string | null;
  /** `preferred_locales`: the languages of the customer's receipts and invoices. */
  preferredLocales: string[];
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function parseCustomerCreate(params: FormHash): CustomerCreateInput {
  rejectUnknown(params, CREATE_PARAMS, '');
  const email = optionalString(params.email, 'email') ?? null;
  if (email !== null && !EMAIL.test(email)) throw invalidParam('email', `Invalid email address: ${email}`, 'email_invalid');
  return {
    email,
    name: optionalString(params.name, 'name') ?? null,
    description: optionalString(params.description, 'description') ?? null,
    metadata: metadataParam(params.metadata, 'metadata'),
    testClock: optionalString(params.test_clock, 'test_clock') ?? null,
    preferredLocales: (listParam(params.preferred_locales, 'preferred_locales') ?? []).map((value, i) => {
      const locale = optionalString(value, `preferred_locales[${i}]`);
      if (!locale) throw invalidParam(`preferred_locales[${i}]`, 'A locale is required.');
      return locale;
    }),
  };
}

/** What `POST /v1/customers/:id` may carry (the fake changes email, name, description, metadata and preferred_locales). */
const UPDATE_PARAMS = new Set([...CREATE_PARAMS].filter((param) => !['payment_method', 'tax_id_data', 'test_clock'].includes(param)).concat('default_source'));

/**
 * `POST /v1/customers/:id`: the fields sent replace the customer's; an empty value unsets the ones that can be
 * unset (`email=`, `preferred_locales=`), as Stripe reads an empty string as "remove it".
 */
export function updateCustomer(customer: CustomerObject, params: FormHash): void {
  rejectUnknown(params, UPDATE_PARAMS, '');
  if (params.email === '') customer.email = null;
  else if (params.email !== undefined) {
    const email = optionalString(params.email, 'email')!;
    if (!EMAIL.test(email)) throw invalidParam('email', `Invalid email address: ${email}`, 'email_invalid');
    customer.email = email;
  }
  if (params.name !== undefined) customer.name = params.name === '' ? null : optionalString(params.name, 'name')!;
  if (params.description !== undefined) customer.description = params.description === '' ? null : optionalString(params.description, 'description')!;
  if (params.metadata !== undefined) customer.metadata = { ...customer.metadata, ...metadataParam(params.metadata, 'metadata') };
  if (params.preferred_locales === '') customer.preferred_locales = [];
  else if (params.preferred_locales !== undefined)
    customer.preferred_locales = parseCustomerCreate({ preferred_locales: params.preferred_locales }).preferredLocales;
}

export function newCustomer(input: CustomerCreateInput, created: number): CustomerObject {
  const id = stripeId('cus_', 14);
  return {
    id,
    object: 'customer',
    address: null,
    balance: 0,
    created,
    currency: null,
    customer_account: null,
    default_source: null,
    delinquent: false,
    description: input.description,
    discount: null,
    email: input.email,
    invoice_prefix: id.slice(4, 12).toUpperCase(),
    invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
    livemode: false,
    metadata: { ...input.metadata },
    name: input.name,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [...input.preferredLocales],
    shipping: null,
    tax_exempt: 'none',
    test_clock: input.testClock,
  };
}

/** A CustomerBalanceTransaction exactly as the SDK types it. */
export type CustomerBalanceTransactionObject = Stripe.CustomerBalanceTransaction;

const BALANCE_PARAMS = new Set(['amount', 'currency', 'description', 'expand', 'metadata']);

export interface BalanceAdjustmentInput {
  amount: number;
  currency: string;
  description: string | null;
  metadata: Record<string, string>;
}

/** `POST /v1/customers/:id/balance_transactions`: a non-zero amount (negative: credit the customer), in the customer's currency. */
export function parseBalanceAdjustment(params: FormHash): BalanceAdjustmentInput {
  rejectUnknown(params, BALANCE_PARAMS, '');
  const amount = integerParam(params.amount, 'amount', -99_999_999, 99_999_999);
  if (amount === undefined) throw invalidParam('amount', 'Missing required param: amount.', 'parameter_missing');
  if (amount === 0) throw invalidParam('amount', 'The amount must not be zero.');
  const currency = optionalString(params.currency, 'currency');
  if (!currency) throw invalidParam('currency', 'Missing required param: currency.', 'parameter_missing');
  return {
    amount,
    currency: currency.toLowerCase(),
    description: optionalString(params.description, 'description') ?? null,
    metadata: metadataParam(params.metadata, 'metadata'),
  };
}

/** Each customer's balance transactions, oldest first. */
const balanceLedgers = new WeakMap<CustomerObject, CustomerBalanceTransactionObject[]>();

/** `GET /v1/customers/:id/balance_transactions`: newest first. */
export const balanceTransactionsOf = (customer: CustomerObject): CustomerBalanceTransactionObject[] => [...(balanceLedgers.get(customer) ?? [])].reverse();

function balanceTransaction(
  customer: CustomerObject,
  fields: {
    amount: number;
    currency: string;
    type: CustomerBalanceTransactionObject['type'];
    description: string | null;
    invoice: string | null;
    metadata: Record<string, string>;
  },
  created: number,
): CustomerBalanceTransactionObject {
  const transaction: CustomerBalanceTransactionObject = {
    id: stripeId('cbtxn_', 24),
    object: 'customer_balance_transaction',
    amount: fields.amount,
    checkout_session: null,
    created,
    credit_note: null,
    currency: fields.currency,
    customer: customer.id,
    customer_account: null,
    description: fields.description,
    ending_balance: customer.balance,
    invoice: fields.invoice,
    livemode: false,
    metadata: fields.metadata,
    type: fields.type,
  };
  balanceLedgers.set(customer, [...(balanceLedgers.get(customer) ?? []), transaction]);
  return transaction;
}

/**
 * An adjustment of the customer's balance: `customer.balance` moves by `amount` (negative is credit, applied to the
 * next invoices). A customer's balance has one currency: the first adjustment (or subscription) sets it.
 */
export function adjustBalance(customer: CustomerObject, input: BalanceAdjustmentInput, created: number): CustomerBalanceTransactionObject {
  if (customer.currency && customer.currency !== input.currency) {
    throw invalidParam('currency', `The currency of this adjustment (${input.currency}) must match the customer's currency (${customer.currency}).`);
  }
  customer.currency ??= input.currency;
  customer.balance += input.amount;
  return balanceTransaction(customer, { ...input, type: 'adjustment', invoice: null }, created);
}

/**
 * At finalisation, the customer's credit (a negative balance) pays what it can of the invoice, as Stripe does:
 * `starting_balance`, `ending_balance`, `amount_due` lowered; an `applied_to_invoice` transaction when credit was used.
 */
export function applyBalance(customer: CustomerObject, invoice: Stripe.Invoice, created: number): CustomerBalanceTransactionObject | null {
  invoice.starting_balance = customer.balance;
  // A negative invoice (a downgrade's prorations) charges nothing: its total is credited to the customer's balance.
  if (invoice.total < 0) {
    customer.balance += invoice.total;
    invoice.ending_balance = customer.balance;
    return balanceTransaction(
      customer,
      { amount: invoice.total, currency: invoice.currency, type: 'applied_to_invoice', description: null, invoice: invoice.id, metadata: {} },
      created,
    );
  }
  const applied = customer.balance < 0 ? Math.min(-customer.balance, invoice.amount_due) : 0;
  customer.balance += applied;
  invoice.ending_balance = customer.balance;
  if (applied === 0) return null;
  invoice.amount_due -= applied;
  invoice.amount_remaining = invoice.amount_due;
  return balanceTransaction(
    customer,
    { amount: applied, currency: invoice.currency, type: 'applied_to_invoice', description: null, invoice: invoice.id, metadata: {} },
    created,
  );
}
