import { z } from 'zod';

/**
 * Passkeys (WebAuthn) as the API speaks them: a staff member signs in with the e-mailed code and then proves a
 * passkey; money and keys ask for it again (step-up). Facts shared by the server and the screens, never decisions.
 */

/** How long a passkey proof counts for a step-up (changing payment keys, staff roles, a large refund), seconds. */
export const STEP_UP_WINDOW_SECONDS = 5 * 60;
/** How long a challenge handed out for a passkey ceremony may be answered, seconds. */
export const PASSKEY_CHALLENGE_TTL_SECONDS = 5 * 60;
/** How many recovery codes the first passkey comes with (each works once). */
export const RECOVERY_CODE_COUNT = 10;
/** The most passkeys one person may register. */
export const PASSKEYS_MAX = 10;
export const PASSKEY_NAME_MAX = 60;

/** One of the caller's passkeys (`GET /api/me/passkeys`). */
export interface Passkey {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** `GET /api/me/passkeys`: the caller's passkeys, whether this session proved one, and how many recovery codes are left. */
export interface MyPasskeys {
  passkeys: Passkey[];
  sessionVerified: boolean;
  recoveryCodesLeft: number;
  /** Whether the store's owner requires a passkey of every staff member. */
  required: boolean;
}

/** `POST /api/me/passkeys`: the passkey saved, and the recovery codes when it is the first (shown this once). */
export interface RegisteredPasskey {
  passkey: Passkey;
  recoveryCodes?: string[];
}

/** A browser's WebAuthn answer, as @simplewebauthn/browser gives it: checked by the server's WebAuthn library. */
const CredentialJson = z
  .object({
    id: z.string().min(1).max(1400),
    rawId: z.string().min(1).max(1400),
    type: z.literal('public-key'),
    response: z.record(z.string(), z.unknown()),
    clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
    authenticatorAttachment: z.string().max(32).optional(),
  })
  .loose();

export const RegisterPasskeyBody = z
  .object({
    name: z.string({ error: 'Name the passkey' }).trim().min(1, 'Name the passkey').max(PASSKEY_NAME_MAX, `At most ${PASSKEY_NAME_MAX} characters`).optional(),
    credential: CredentialJson,
  })
  .strict();
export type RegisterPasskeyBody = z.infer<typeof RegisterPasskeyBody>;

export const VerifyPasskeyBody = z.object({ credential: CredentialJson }).strict();
export type VerifyPasskeyBody = z.infer<typeof VerifyPasskeyBody>;

/** A recovery code as shown: four groups of four, e.g. `K7QM-2XPA-9FTR-WB3E` (case and dashes do not matter). */
export const RecoveryCodeBody = z
  .object({
    code: z.string({ error: 'Enter a recovery code' }).trim().min(8, 'Enter a recovery code').max(40, 'Not a recovery code'),
  })
  .strict();
export type RecoveryCodeBody = z.infer<typeof RecoveryCodeBody>;
