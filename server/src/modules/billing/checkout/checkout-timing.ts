/** The payment follow-up job (check-checkout.ts): it asks the provider about a checkout nobody has heard back from. */
export const CHECK_CHECKOUT = 'check_checkout';
/** An unpaid Checkout Session is closed by Stripe after this long (Stripe's minimum is 30 minutes). */
export const CHECKOUT_SESSION_TTL_SECONDS = 3600;
/** When the follow-up first asks the provider about a checkout nobody has heard back from. */
export const FIRST_FOLLOW_UP_SECONDS = 600;
