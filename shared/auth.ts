import { z } from 'zod';
import { LocaleSchema } from './locale-schema.js';
import { LOCALES } from './locales.js';
import { OTP_LENGTH } from './constants.js';

/**
 * Everyone's role: a customer (`user`) or one of the staff roles (shared/staff.ts says what each may do).
 * `owner` can do everything; `admin` all but staff and payment keys; `support` customers; `finance` money.
 */
export const ROLES = ['user', 'owner', 'admin', 'support', 'finance'] as const;
export type Role = (typeof ROLES)[number];
export const STAFF_ROLES = ['owner', 'admin', 'support', 'finance'] as const satisfies readonly Role[];
export type StaffRole = (typeof STAFF_ROLES)[number];

/** Whether someone with this role works for the store (opens the admin), rather than a customer. */
export function isStaff(role: Role): role is StaffRole {
  return role !== 'user';
}

/** Normalised e-mail: trimmed, lower-cased, a real address shape, at most 254 characters. */
export const EmailSchema = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .max(254, 'Email is too long')
  .pipe(z.email({ error: 'Enter a valid email address' }));

export const OtpCodeSchema = z
  .string({ error: 'Code is required' })
  .trim()
  .regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), `Code must be ${OTP_LENGTH} digits`);

/** `POST /api/auth/otp`: `locale` is the page's language (else the request's Accept-Language decides). */
export const RequestOtpBody = z.object({ email: EmailSchema, locale: LocaleSchema.optional() });
export type RequestOtpBody = z.infer<typeof RequestOtpBody>;

/** `POST /api/me/email`: a customer without an address (from the Telegram bot) asks for a code to add one. */
export const AddEmailBody = RequestOtpBody;
export type AddEmailBody = RequestOtpBody;

/** `POST /api/me/email/confirm`: the code sent there proves the address, which becomes theirs. */
export const ConfirmEmailBody = z.object({ email: EmailSchema, code: OtpCodeSchema });
export type ConfirmEmailBody = z.infer<typeof ConfirmEmailBody>;

export const CLIENT_KINDS = ['web', 'desktop'] as const;
export type ClientKind = (typeof CLIENT_KINDS)[number];

export const VerifyOtpBody = z.object({
  email: EmailSchema,
  code: OtpCodeSchema,
  client: z.enum(CLIENT_KINDS).default('web'),
  /**
   * The referral code a new customer came with, where no cookie carries it (the desktop app); the web's
   * `/r/<code>` cookie is read otherwise. Anything not shaped like a code is ignored, never refused.
   */
  referralCode: z.string().max(64).optional().catch(undefined),
});
export type VerifyOtpBody = z.infer<typeof VerifyOtpBody>;

export const RefreshBody = z.object({ refreshToken: z.string().min(1).max(512).optional() });
export type RefreshBody = z.infer<typeof RefreshBody>;

export const LOGOUT_SCOPES = ['local', 'global', 'others'] as const;
export type LogoutScope = (typeof LOGOUT_SCOPES)[number];
export const LogoutBody = z.object({
  scope: z.enum(LOGOUT_SCOPES).default('local'),
  refreshToken: z.string().min(1).max(512).optional(),
});
export type LogoutBody = z.infer<typeof LogoutBody>;

/** `GET /api/me` and the `user` field of a successful verify. */
export const MeSchema = z.object({
  id: z.string(),
  /** Null for a customer who came through the Telegram bot and has not given one. */
  email: z.string().nullable(),
  role: z.enum(ROLES),
  trialUsed: z.boolean(),
  /** The language the user reads (e-mails, the /sub page); null until known. (An answer's schema: no transforms.) */
  locale: z.enum(LOCALES).nullable(),
});
export type Me = z.infer<typeof MeSchema>;

/** `PATCH /api/me`: the user's own settings. */
export const UpdateMeBody = z.object({ locale: LocaleSchema }).strict();
export type UpdateMeBody = z.infer<typeof UpdateMeBody>;

/** `GET /api/auth/session`: who is signed in, if anyone (never a 401). */
export interface SessionResponse {
  user: Me | null;
}

export interface VerifyResponse {
  user: Me;
}

/** Desktop clients get their tokens in the body instead of cookies. */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  /** Seconds until the access token expires. */
  expiresIn: number;
}

export type DesktopVerifyResponse = VerifyResponse & TokenPair;
export type RefreshResponse = Partial<TokenPair> & { expiresIn: number };
