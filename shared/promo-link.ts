/**
 * What a promo link is made of, apart from the rest of shared/promo-codes.ts (and its zod): the first script a
 * prerendered page runs takes the code from the address with these alone.
 */

/** Codes are letters, digits, `-` and `_`, matched without regard to case (stored as typed). */
export const PROMO_CODE_PATTERN = /^[A-Za-z0-9_-]{3,40}$/;
/** The query parameter that fills the payment dialog's code from a link (`/pricing?promo=SPRING`). */
export const PROMO_LINK_PARAM = 'promo';
