import type Stripe from 'stripe';
import { couponDiscount } from './coupons.js';
import type { SessionCreateInput } from './session-params.js';

/** A Checkout Session exactly as the SDK types it (every field Stripe sends, most of them null here). */
export type CheckoutSessionObject = Stripe.Checkout.Session;

/** A new open, unpaid hosted Checkout Session (`url` points at the fake's own checkout page). */
export function newSession(input: SessionCreateInput, options: { id: string; url: string; created: number }): CheckoutSessionObject {
  const amount = input.lineItems.reduce((sum, item) => sum + item.unitAmount * item.quantity, 0);
  const discount = input.coupon ? couponDiscount(input.coupon, amount) : 0;
  return {
    id: options.id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: input.allowedPaymentMethodTypes && [...input.allowedPaymentMethodTypes],
    amount_subtotal: amount,
    amount_total: amount - discount,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: input.cancelUrl,
    client_reference_id: input.clientReferenceId,
    client_secret: null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: options.created,
    currency: input.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: input.submitMessage ? { message: input.submitMessage } : null,
      terms_of_service_acceptance: null,
    },
    customer: input.customer,
    customer_account: null,
    customer_creation: input.mode === 'subscription' ? null : 'if_required',
    customer_details: null,
    customer_email: input.customerEmail,
    discounts: input.coupon ? [{ coupon: input.coupon.id, promotion_code: null }] : [],
    expires_at: input.expiresAt ?? options.created + 24 * 60 * 60,
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: input.locale,
    managed_payments: null,
    metadata: { ...input.metadata },
    mode: input.mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: input.mode === 'subscription' ? 'always' : 'if_required',
    payment_method_configuration_details: null,
    payment_method_options: null,
    payment_method_types: [...input.paymentMethodTypes],
    payment_status: 'unpaid',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: input.successUrl,
    total_details: { amount_discount: discount, amount_shipping: 0, amount_tax: 0 },
    ui_mode: 'hosted_page',
    url: options.url,
    wallet_options: null,
  };
}

/** `customer_details` once the customer has paid. */
export function customerDetails(email: string | null): NonNullable<CheckoutSessionObject['customer_details']> {
  return {
    address: null,
    business_name: null,
    email,
    individual_name: null,
    name: null,
    phone: null,
    tax_exempt: 'none',
    tax_ids: [],
  };
}

/** `success_url` with Stripe's `{CHECKOUT_SESSION_ID}` template variable filled in. */
export function successRedirect(session: CheckoutSessionObject): string | null {
  return session.success_url?.replaceAll('{CHECKOUT_SESSION_ID}', session.id) ?? null;
}
