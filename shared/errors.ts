import type { ImportRowProblem } from './panel-import.js';

/** The one error shape every API answer uses for a failure. */
export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
  /** Present on `validation_failed`: field name → what is wrong with it. */
  fields?: Record<string, string>;
  /** Present on `invalid_code` (a sign-in code refused): why, and what the visitor can do next. */
  codeStatus?: CodeStatus;
  /** Present on `import_invalid`: each row of an import that cannot be taken, and why. */
  rows?: ImportRowProblem[];
  /** Present on `promo_invalid`: why the code cannot be used (shared/promo-codes.ts PROMO_INVALID_REASONS). */
  reason?: string;
  /** Present on `insufficient_balance`: what the wallet is short of (minor units of the store's currency). */
  needed?: number;
}

/**
 * Why a sign-in code was refused: `wrong` (tries left), `locked` (too many wrong tries: only a new code
 * helps) or `expired` (used, timed out, or none sent); and in how many seconds a new one may be asked for.
 */
export interface CodeStatus {
  reason: 'wrong' | 'locked' | 'expired';
  attemptsLeft: number;
  resendInSeconds: number;
}

/**
 * Every `code` the server answers, with the HTTP status (or statuses) it comes with and what it means. A code
 * not here does not compile (AppError and ApiErrorBody take only these); clients branch on `ERR`, never on a
 * raw string, and treat a code they do not know (a newer server's) as a generic error.
 */
export const ERRORS = {
  validation_failed: { status: 400, meaning: 'A field of the request is not valid: `fields` says which and why.' },
  invalid_body: {
    status: 400,
    meaning:
      'The body is not JSON, is empty, does not match its Content-Length, or nests deeper than 64 levels; or a signed webhook is not an event of its provider.',
  },
  bad_request: { status: 400, meaning: 'Any other request the server could not take as sent.' },
  payload_too_large: { status: 413, meaning: "The body is over the route's limit (refused before it is read)." },
  invalid_code: { status: 400, meaning: 'A sign-in code refused: `codeStatus` says why and when a new one may be asked for.' },
  invalid_refresh_token: { status: 401, meaning: 'The refresh token is unknown, spent or revoked: sign in again.' },
  unauthenticated: { status: 401, meaning: 'Not signed in, or the session ended.' },
  forbidden: { status: 403, meaning: 'Signed in, but not allowed to do this.' },
  role_forbidden: {
    status: 403,
    meaning: "A staff member whose role does not include this (docs/admin.md#staff-roles); the route's roles are in the OpenAPI document.",
  },
  no_email: { status: 409, meaning: 'The customer has no e-mail address (they came through the Telegram bot) to send it to.' },
  last_owner: { status: 409, meaning: 'The store would be left without an owner: make someone else owner first.' },
  csrf_failed: { status: 403, meaning: 'A change sent with the session cookie from another site, or without an Origin.' },
  passkey_required: {
    status: 403,
    meaning:
      'A staff member signed in with the code alone: prove a passkey (`POST /api/auth/passkey/verify`, or a recovery code) before the admin opens, and before registering or deleting a passkey.',
  },
  passkey_setup_required: {
    status: 403,
    meaning: 'The owner requires a passkey of every staff member, and this one has none yet: register one first (`POST /api/me/passkeys`).',
  },
  step_up_required: {
    status: 403,
    meaning: 'This change (payment keys, staff roles, a large refund) asks for the passkey again: prove it, then send the request again.',
  },
  passkey_invalid: {
    status: 400,
    meaning:
      "A passkey answer refused: its challenge expired or was used already, or the signature, origin or credential (not one of the caller's) does not check.",
  },
  recovery_code_invalid: { status: 400, meaning: 'A recovery code refused: unknown, or used already (each works once).' },
  passkey_limit: { status: 409, meaning: 'The caller has as many passkeys as one person may have: delete one first.' },
  telegram_not_linked: {
    status: [403, 409],
    meaning:
      "The Mini App's Telegram user is linked to no customer: sign in by e-mail once, then `POST /api/me/telegram` links them (403); the customer has no Telegram linked to set choices for (409).",
  },
  email_required: {
    status: 409,
    meaning: 'The customer has no e-mail address (they came through the Telegram bot), and this needs one: add it first.',
  },
  email_taken: { status: 409, meaning: 'Another customer has this e-mail address: sign in with it instead.' },
  has_email: { status: 409, meaning: 'The customer has an e-mail address already: one is added only to an account without.' },
  not_found: { status: 404, meaning: "No such record, or it is someone else's." },
  rate_limited: { status: 429, meaning: 'Too many requests: try again after `Retry-After` seconds.' },
  mail_failed: { status: 502, meaning: 'The e-mail could not be sent.' },
  service_unavailable: { status: 503, meaning: 'The server or a panel it needs cannot answer now: try again shortly.' },
  internal_error: { status: 500, meaning: 'Something went wrong on the server (it is logged).' },
  invalid_cursor: { status: 400, meaning: "A list's `cursor` is not one the server gave." },
  cannot_demote_self: { status: 409, meaning: 'An admin cannot take away their own admin role.' },
  trial_used: { status: 409, meaning: 'This customer has had their trial (free or paid): once per person, Telegram included.' },
  trial_in_progress: { status: 409, meaning: "The customer's paid trial is waiting for its payment: finish it, or start again once it has closed." },
  account_not_provisioned: { status: 409, meaning: 'The account is not on its panel yet.' },
  account_suspended: { status: 409, meaning: 'The account is suspended: it cannot be renewed or changed.' },
  same_plan: { status: 409, meaning: 'A plan change to the plan the account is on already.' },
  plan_not_switchable: { status: 409, meaning: 'The account is on a plan it cannot change from (a trial).' },
  plan_not_here: {
    status: 409,
    meaning: "The plan does not list the account's server (locations per plan): it is bought as a new account, not switched to.",
  },
  renews_by_itself: { status: 409, meaning: 'The account renews by itself with a card subscription: turn auto-renew off before changing plan.' },
  account_disputed: { status: 409, meaning: 'A payment of the account is disputed: its plan cannot change now.' },
  change_in_progress: { status: 409, meaning: 'A payment for the account (a plan change or a renewal) is still open.' },
  currency_changed: { status: 409, meaning: "The account's unused time was paid in another currency: it cannot be credited." },
  no_scheduled_change: { status: 409, meaning: 'No plan change waits for the account.' },
  add_on_not_for_plan: { status: 409, meaning: "The add-on is not sold for the account's plan." },
  add_on_not_running: { status: 409, meaning: 'The account has no paid time left for an add-on to add to.' },
  add_on_unlimited: { status: 409, meaning: 'The account has no limit of that kind (unlimited devices or data) for the add-on to raise.' },
  add_on_in_use: { status: 409, meaning: 'Accounts have this add-on: switch it off instead of deleting it.' },
  renewal_mismatch: {
    status: 409,
    meaning: 'The account renews with a card subscription: it changes only to a plan that renews by card at the same interval, paid by that card.',
  },
  card_declined: { status: 402, meaning: 'The card was declined (or needs the customer to confirm the payment): nothing changed.' },
  account_in_force: { status: 409, meaning: 'The payment provider account still bills subscriptions: it cannot be removed.' },
  broadcast_finished: { status: 409, meaning: 'The broadcast has been sent (or cancelled): there is nothing left to cancel.' },
  plan_in_use: { status: 409, meaning: 'Accounts or orders use this plan: hide it instead of deleting it.' },
  server_in_use: { status: 409, meaning: 'Accounts live on this server: it cannot be deleted.' },
  connection_failed: { status: [400, 502], meaning: 'The panel refused the credentials or URL (400), or did not answer (502).' },
  connection_test_failed: { status: [400, 502], meaning: 'The connection test of a panel or provider failed: the message says what is wrong.' },
  panel_error: { status: [400, 502, 503], meaning: 'The panel refused or failed the change; 503 while it cannot be reached.' },
  import_invalid: { status: 400, meaning: 'Some rows of an import cannot be taken: `rows` says which and why.' },
  import_conflict: { status: 409, meaning: 'An account being imported already exists.' },
  not_purchasable: { status: 400, meaning: 'The plan cannot be bought (hidden, the trial, or not sold in this way).' },
  payment_required: { status: 402, meaning: 'The plan costs money: a payment method is needed.' },
  payment_not_configured: { status: 503, meaning: 'No payment provider is set up for this method.' },
  payment_provider_error: { status: [502, 503], meaning: 'The payment provider refused or could not be reached.' },
  price_changed: { status: 409, meaning: 'The price changed since it was shown: look again and confirm.' },
  insufficient_balance: { status: 409, meaning: 'The wallet holds less than the order: `needed` says how much more.' },
  top_ups_off: { status: 409, meaning: 'Wallet top-ups are switched off.' },
  top_up_spent: { status: 409, meaning: 'A refunded top-up has already been spent from the wallet.' },
  promo_invalid: { status: 400, meaning: 'The promo code cannot be used: `reason` says why.' },
  promo_code_used: { status: 409, meaning: 'A promo code with this text exists already.' },
  gift_code_not_found: { status: 404, meaning: 'No such gift code.' },
  gift_code_used: { status: 409, meaning: 'The gift code has been redeemed already.' },
  gift_other_plan: { status: 409, meaning: "The gift code is for another plan than the account's." },
  gift_plan_unavailable: { status: 409, meaning: "The gift code's plan can no longer be delivered." },
  referral_not_held: { status: 409, meaning: 'The referral credit is not held (paid out already, or void).' },
  referral_void: { status: 409, meaning: 'The referral was voided.' },
  already_renews: { status: 409, meaning: 'The account already renews automatically.' },
  not_recurring: { status: 409, meaning: "The account's plan does not renew." },
  not_renewable: { status: 409, meaning: 'The account cannot be renewed (its plan is gone or it is a trial).' },
  not_renewing: { status: 409, meaning: 'The subscription is not renewing: nothing to cancel.' },
  renewal_paid: { status: 409, meaning: 'The renewal has been paid already.' },
  paid_ahead: { status: 409, meaning: 'Paid periods are still ahead: the change waits for them.' },
  no_billing_account: { status: 409, meaning: 'The customer has no account at the payment provider yet.' },
  no_saved_method: { status: 409, meaning: 'No saved card to renew with.' },
  provider_cannot: {
    status: 409,
    meaning: "The subscription's payment provider cannot do this (Telegram Stars cannot move a charge, credit a balance or open a billing page).",
  },
  not_refundable: { status: 409, meaning: 'The payment cannot be refunded (not paid, already refunded, or not this way).' },
  refund_destination: { status: 409, meaning: 'The refund cannot go where it was asked to (the wallet or the card).' },
  refund_in_progress: { status: 409, meaning: 'A refund of this payment is under way.' },
  refund_unconfirmed: { status: 502, meaning: 'The provider did not confirm the refund: it will be retried.' },
  invalid_signature: { status: 400, meaning: 'A webhook whose signature does not match.' },
  unreadable_event: { status: 422, meaning: 'A webhook whose event cannot be read (kept for the admin).' },
  auto_renew_on: { status: 409, meaning: "The customer's account cannot be deleted while a subscription of theirs renews by itself." },
  payment_open: { status: 409, meaning: "The customer's account cannot be deleted while a payment or refund of theirs is in progress." },
  staff_account: { status: 409, meaning: 'A staff member cannot delete their own account (the owner removes their access first).' },
} as const satisfies Record<string, { status: number | readonly number[]; meaning: string }>;

export type ErrorCode = keyof typeof ERRORS;

export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** The codes as constants to branch on: `error.code === ERR.trial_used`. */
export const ERR = Object.fromEntries(ERROR_CODES.map((code) => [code, code])) as { readonly [Code in ErrorCode]: Code };

/** The statuses a code may come with. */
export const statusesOf = (code: ErrorCode): readonly number[] => {
  const { status } = ERRORS[code];
  return typeof status === 'number' ? [status] : status;
};

/** Messages from the product spec's error catalogue that the server sends as-is. */
export const MESSAGES = {
  invalidOtp: 'Invalid code',
  otpSendFailed: 'Failed to send the code',
  otpSent: 'Check your email for the sign-in code',
  unexpected: 'An unexpected error occurred',
  serverUnreachable: 'Unable to connect to the server. Please check your internet connection.',
  sessionInitFailed: 'Failed to initialize session. Please check your internet connection.',
  profileLoadFailed: 'Failed to load user profile',
  emailRequired: 'Add your e-mail address first: this payment method sends its receipt there.',
  emailTaken: 'Another account already uses this e-mail address. Sign in with it instead.',
} as const;
