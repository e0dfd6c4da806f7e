import { ERR } from '../../../shared/errors.js';
import { isApiError } from './api-error';

/** The answers that a passkey proof (or adding a passkey) can turn into a success: the request is sent again after it. */
export type PasskeyChallengeCode = typeof ERR.passkey_required | typeof ERR.passkey_setup_required | typeof ERR.step_up_required;

const CHALLENGES: readonly string[] = [ERR.passkey_required, ERR.passkey_setup_required, ERR.step_up_required];

/** Shows the "Confirm it's you" (or "Add a passkey") screen; true once the session may try again. */
export type PasskeyChallengeHandler = (code: PasskeyChallengeCode) => Promise<boolean>;

let handler: PasskeyChallengeHandler | null = null;

/** Set by the screen that asks for the passkey (features/passkeys/PasskeyChallengeHost.tsx); returns how to unset it. */
export function setPasskeyChallengeHandler(next: PasskeyChallengeHandler): () => void {
  handler = next;
  return () => {
    if (handler === next) handler = null;
  };
}

/** The proof itself is never retried this way (its screen shows its own answers). */
const PROOF_PATH = '/api/auth/passkey/';

/**
 * Sends the request; when the server asks for the passkey first (a staff session after the e-mailed code, a
 * step-up before a large refund, adding a second passkey), asks the person for it and sends the request once more.
 */
export async function withPasskeyChallenge<T>(path: string, send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    const current = handler;
    if (!current || !isApiError(error) || !CHALLENGES.includes(error.code) || path.startsWith(PROOF_PATH)) throw error;
    if (!(await current(error.code as PasskeyChallengeCode))) throw error;
    return send();
  }
}
