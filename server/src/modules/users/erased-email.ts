import { hmacHex, type Keys } from '../../lib/crypto.js';

/**
 * What a deleted customer's address leaves behind: a hash keyed with a secret of the store's own (not the address,
 * and not a plain hash anyone could test addresses against), so the trial stays once per person if they sign up again.
 */
export function erasedEmailHash(keys: Keys, email: string): string {
  return hmacHex(keys.erasure, email.trim().toLowerCase());
}
