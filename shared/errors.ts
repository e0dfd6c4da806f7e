import type { ImportRowProblem } from './panel-import.js';

/** The one error shape every API answer uses for a failure. */
export interface ApiErrorBody {
  code: ErrorCode | (string & {});
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

/** Codes clients branch on. Servers may add more; clients must treat unknown codes as generic errors. */
export const ERROR_CODES = [
  'validation_failed',
  'payload_too_large',
  'invalid_code',
  'invalid_refresh_token',
  'unauthenticated',
  'forbidden',
  'csrf_failed',
  'not_found',
  'rate_limited',
  'mail_failed',
  'service_unavailable',
  'internal_error',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** Messages from the product spec's error catalogue that the server sends as-is. */
export const MESSAGES = {
  invalidOtp: 'Invalid code',
  otpSendFailed: 'Failed to send the code',
  otpSent: 'Check your email for the sign-in code',
  unexpected: 'An unexpected error occurred',
  serverUnreachable: 'Unable to connect to the server. Please check your internet connection.',
  sessionInitFailed: 'Failed to initialize session. Please check your internet connection.',
  profileLoadFailed: 'Failed to load user profile',
} as const;
