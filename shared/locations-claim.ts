import type { Locale } from './locales.js';

/** A claim that is a number: '50', '50+', '1,000+' (as the operator types it in Settings → Site content). */
const NUMBER_CLAIM = /^(\d[\d,]*)(\+?)$/;

/**
 * The locations claim (already in `locale`'s language: `siteContentFor`) as a page in `locale` writes
 * it: a number in the language's digits ('50+' is '۵۰+' in Persian, '1,000+' is '1 000+' in Russian),
 * anything else as the operator wrote it. The website writes it so once a prerendered page has
 * hydrated (web useLocationsClaim): the server fills the page's token with the claim as is, and the
 * page must hydrate with exactly that text. A server that wrote the digits itself would have to change
 * what the hook hydrates with in the same step.
 */
export function localizeLocationsClaim(claim: string, locale: Locale): string {
  const number = NUMBER_CLAIM.exec(claim.trim());
  if (!number) return claim;
  return `${new Intl.NumberFormat(locale).format(+number[1]!.replaceAll(',', ''))}${number[2]}`;
}
