import { randomInt } from 'node:crypto';
import { randomToken } from '../../lib/crypto.js';

const USERNAME_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** `user_` plus 8 random characters from [a-z0-9] (valid on both panels, and never a case clash). */
export function generateUsername(): string {
  let suffix = '';
  for (let i = 0; i < 8; i += 1) suffix += USERNAME_ALPHABET[randomInt(USERNAME_ALPHABET.length)];
  return `user_${suffix}`;
}

/** The unguessable token of our subscription link. */
export const generateSubToken = () => randomToken(24);

/** Expiry is now plus the plan's days; a fraction of a day is hours (0.125 = 3 hours). */
export const expiryAfterDays = (now: Date, days: number) => new Date(now.getTime() + Math.round(days * 24 * 3600) * 1000);
