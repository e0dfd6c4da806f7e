import { OTP_LENGTH } from '../../../../shared/constants.js';

/** Digits typed with a Persian, Arabic or full-width keyboard, as the ASCII digits the code is made of. */
function asciiDigits(text: string): string {
  return text.replace(/[\u06F0-\u06F9\u0660-\u0669\uFF10-\uFF19]/g, (digit) => String(digit.codePointAt(0)! & 0xf));
}

/**
 * What was typed or pasted into the sign-in code field, as the code: its digits only (a pasted
 * "123 456", "123-456" or "Your code: 123456" gives 123456), at most OTP_LENGTH of them.
 */
export function codeDigits(text: string): string {
  return asciiDigits(text).replace(/\D/g, '').slice(0, OTP_LENGTH);
}
