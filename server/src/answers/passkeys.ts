import { z } from 'zod';
import type { MyPasskeys, Passkey, RegisteredPasskey } from '../../../shared/passkeys.js';

/**
 * What the passkey routes answer: the caller's passkeys, a registration (with the recovery codes, once), and the
 * WebAuthn options the browser's @simplewebauthn/browser takes as they are (their fields are WebAuthn's own).
 */

const PasskeyAnswer = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
}) satisfies z.ZodType<Passkey>;

/** `GET /api/me/passkeys`. */
export const MyPasskeysAnswer = z.object({
  passkeys: z.array(PasskeyAnswer),
  sessionVerified: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  required: z.boolean(),
}) satisfies z.ZodType<MyPasskeys>;

/** `POST /api/me/passkeys`: `recoveryCodes` with the first passkey only, never again. */
export const RegisteredPasskeyAnswer = z.object({
  passkey: PasskeyAnswer,
  recoveryCodes: z.array(z.string()).optional(),
}) satisfies z.ZodType<RegisteredPasskey>;

/** `POST /api/me/passkeys/registration-options`: WebAuthn's PublicKeyCredentialCreationOptionsJSON. */
export const RegistrationOptionsAnswer = z.looseObject({
  challenge: z.string(),
  rp: z.looseObject({ name: z.string(), id: z.string().optional() }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  pubKeyCredParams: z.array(z.looseObject({ alg: z.number(), type: z.string() })),
});

/** `POST /api/auth/passkey/options`: WebAuthn's PublicKeyCredentialRequestOptionsJSON. */
export const AuthenticationOptionsAnswer = z.looseObject({
  challenge: z.string(),
  rpId: z.string().optional(),
  allowCredentials: z.array(z.looseObject({ id: z.string(), type: z.string() })).optional(),
});

/** `POST /api/auth/passkey/verify` · `/recovery`: the session is verified (and how many recovery codes are left). */
export const PasskeyVerifiedAnswer = z.object({ verified: z.literal(true), recoveryCodesLeft: z.number().int().optional() });
