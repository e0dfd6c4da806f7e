/**
 * The API's error messages customers can see, in English: gettext-style, the English text is the key.
 * Each other language (./ru.ts, ./fa.ts, ./zh-CN.ts) translates every one of them (checked by the
 * type of its table, and by a test); a message not listed here is sent in English.
 *
 * The English texts come from where the errors are thrown (auth, accounts, checkout, subscriptions,
 * the /sub link, request validation, the error handler). Change one there and here together.
 */
export const CUSTOMER_MESSAGES = [
  // Signing in and sessions.
  'Invalid code',
  'Failed to send the code',
  'Your session has ended. Please sign in again.',
  'Please sign in to continue.',
  'You do not have permission to do that.',
  'This request did not come from this site.',
  // Validation of customer bodies (shared/auth.ts, shared/accounts.ts, shared/billing-schemas.ts, shared/locales.ts).
  'Some fields are not valid.',
  'Send a JSON object.',
  'Email is required',
  'Email is too long',
  'Enter a valid email address',
  'Code is required',
  'Code must be 6 digits',
  'planId is required',
  'The payment method is "card", "crypto", "yookassa", "cryptopay" or "wallet"',
  'Send planId to buy a plan, or accountId to renew an account',
  'The language is one of en, ru, fa, zh-CN',
  // Requests the server could not read, and failures of its own.
  'The request body is too large.',
  'Send the request body as JSON (Content-Type: application/json).',
  'The request body is empty; send a JSON object.',
  'The request body is not valid JSON.',
  'The request body does not match its Content-Length.',
  'The request body nests deeper than 64 levels.',
  'An unexpected error occurred',
  'Not found.',
  // VPN accounts.
  'Trial Already Used',
  'Service is temporarily unavailable. Please try again later or contact support.',
  // Deleting one's own account (DELETE /api/me, shared/my-data.ts).
  'A subscription of yours still renews by itself. Turn off its auto-renew first, then delete your account.',
  'A payment or refund of yours is still in progress. Try again once it is finished (at most an hour).',
  'Staff accounts are not deleted here: ask the store owner to remove your access first.',
  'We could not remove your VPN account from its server, so your account was not deleted. Please try again later.',
  'Plan not found',
  'This plan is paid: buy it by card.',
  'This trial has a price: start it with a payment from your dashboard.',
  'The payment for your trial is still open: finish it, or try again once it has closed (within an hour).',
  'Account not found',
  'Device not found',
  'Account or master server not found',
  'This account is waiting for its payment and cannot be deleted yet.',
  'Failed to create VPN account',
  // Checkout.
  'This plan is free: claim it from your dashboard instead.',
  'This account is still waiting for its first payment.',
  'This account renews automatically; there is nothing to pay now.',
  // Plan changes.
  'This account is on that plan already.',
  'This account cannot change plan: a trial becomes a paid plan when you buy one.',
  'This plan renews by itself with your card: turn off auto-renew first, then change plan when it ends.',
  'A plan change for this account is waiting for its payment: finish or cancel it first.',
  'A payment for this account is disputed, so its plan cannot change now.',
  'This account was paid in another currency, so its unused time cannot be credited: renew it, or contact support.',
  'No plan change is waiting for this account.',
  'This plan renews through Telegram Stars, which cannot change its price: turn off auto-renew in Telegram first, then change plan when it ends.',
  'This account renews automatically: it can change only to another plan that renews automatically. Turn off auto-renew first to change to this one.',
  'This plan is not offered where your account is: buy it as a new account instead.',
  // Add-ons.
  'Add-on not found',
  "This add-on is not sold for this account's plan.",
  'This account has no paid time left to add to: renew it first.',
  'This account has no limit of that kind to raise.',
  'Choose an add-on',
  'This account renews with your card subscription: it can change only to another plan that renews by card at the same interval, paid by that card.',
  'A renewal of this account has not been paid: update your card in the billing portal, then change plan.',
  'Your card was declined, so the plan did not change. Update your card in the billing portal and try again.',
  'Choose a plan',
  "This account's plan is no longer on sale, so it cannot be renewed. Buy a new plan instead.",
  'Failed to create payment intent',
  'Add your e-mail address first: this payment method sends its receipt there.',
  'Another account already uses this e-mail address. Sign in with it instead.',
  'A renewal payment for this account is still open and could not be closed just now. Try again in a minute.',
  'A renewal of this account has just been paid, so it was not deleted: its new period is being added. Delete it again if you still want to.',
  'Payment session not found',
  'Error checking payment status. Please refresh the page.',
  'Payment provider not properly configured',
  'Stripe not initialized',
  'Crypto payments not implemented yet',
  'This payment method does not take the currency this store sells in. Choose another one.',
  'Your balance does not cover this. Top it up, or pay another way.',
  'The amount is outside the top-up limits.',
  'Topping up the balance is not available right now.',
  'enabled is true or false',
  // Promo codes (shared/promo-codes.ts).
  'This promo code does not exist.',
  'This promo code is not valid yet.',
  'This promo code has expired.',
  'This promo code has been used up.',
  'This promo code is not valid for this plan.',
  'You have already used this promo code.',
  'This promo code would leave less to pay than the smallest amount that can be charged, so it cannot be used for this plan.',
  'The price of this plan has just changed. Check it and try again.',
  'A code is 3 to 40 letters, digits, - or _',
  'Enter a code',
  // Gift codes (shared/gift-codes.ts).
  'This gift code does not exist.',
  'This gift code has already been used.',
  'The plan of this gift code is no longer available. Please contact support.',
  'This gift is for another plan: redeem it as a new account instead.',
  'Enter the gift code',
  'Enter the gift code as you received it',
  // Recurring subscriptions.
  'Subscription not found',
  'The payment provider could not be reached just now. Try again in a minute.',
  'This plan does not renew automatically, so there is nothing to cancel: it ends with its period.',
  'This subscription has already ended, so it cannot be changed.',
  'There is no card on file yet: billing can be managed after your first recurring payment.',
  'The billing portal could not be opened just now. Try again in a minute.',
  'There is no saved card to renew with. Renew by hand, or buy the plan again to save a card.',
  'Saved card not found.',
  // The subscription link (/sub/<token>).
  'This subscription link does not exist. Copy it again from your dashboard.',
  'This subscription is still being set up. Please try again in a minute.',
  'Your payment is confirmed; your account is being set up. Please try again in a minute.',
] as const;

export type CustomerMessage = (typeof CUSTOMER_MESSAGES)[number];

/**
 * Messages that carry a wait in seconds (an error's `retryAfterSeconds`): the English text exactly as the
 * server writes it, and, in each language's table, an ICU message with `{seconds}`.
 */
export const TIMED_MESSAGES = {
  /** Any rate limit (`rate_limited`): errors.ts `rateLimited()`. */
  rate_limited: (seconds: number) => `Too many requests. Please try again in ${seconds} seconds.`,
  /** A new sign-in code asked for within the resend cool-down (auth.service.ts). */
  otp_resend_wait: (seconds: number) => `Please wait ${seconds} seconds before requesting a new code.`,
} as const;

export type TimedMessage = keyof typeof TIMED_MESSAGES;

/** One language's table: every customer message, and an ICU message for each timed one. */
export interface ErrorCatalogue {
  messages: Readonly<Record<CustomerMessage, string>>;
  timed: Readonly<Record<TimedMessage, string>>;
}
