/** Customers: `POST /v1/customers` parameters and the Customer object. */
import type Stripe from 'stripe';
import type { FormHash } from './form-body.js';
import { metadataParam, optionalString, rejectUnknown } from './form-params.js';
import { invalidParam } from './stripe-errors.js';
import { stripeId } from './stripe-ids.js';

/** A Customer exactly as the SDK types it. */
export type CustomerObject = Stripe.Customer;

/** What `POST /v1/customers` may carry; the fake keeps email, name, description, metadata and test_clock. */
const CREATE_PARAMS = new Set([
  'address', 'balance', 'business_name', 'cash_balance', 'description', 'email', 'expand', 'individual_name',
  'invoice_prefix', 'invoice_settings', 'metadata', 'name', 'next_invoice_sequence', 'payment_method', 'phone',
  'preferred_locales', 'shipping', 'source', 'tax', 'tax_exempt', 'tax_id_data', 'test_clock', 'validate',
]);

export interface CustomerCreateInput {
  email: string | null;
  name: string | null;
  description: string | null;
  metadata: Record<string, string>;
  testClock: string | null;
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
  };
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
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: input.testClock,
  };
}
