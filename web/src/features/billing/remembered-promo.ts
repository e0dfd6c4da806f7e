import { PROMO_CODE_PATTERN, PROMO_LINK_PARAM } from '../../../../shared/promo-link.js';

/** Where a code from a link waits for the payment dialog (this tab only, through sign-in). */
const STORAGE_KEY = 'vpn.promoCode';

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null; // storage blocked: the code is simply typed by hand
  }
}

/** A link with `?promo=CODE` (any page): the code is kept for the payment dialog to fill in. */
export function rememberPromoFromLink(search: string): void {
  const code = new URLSearchParams(search).get(PROMO_LINK_PARAM)?.trim();
  if (code && PROMO_CODE_PATTERN.test(code)) storage()?.setItem(STORAGE_KEY, code);
}

/** The code a link brought, if any. */
export const rememberedPromo = (): string | null => storage()?.getItem(STORAGE_KEY) ?? null;

/** Paid, or refused for good: the link's code is not offered again. */
export function forgetPromo(): void {
  storage()?.removeItem(STORAGE_KEY);
}
