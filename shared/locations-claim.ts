import type { Locale } from './locales.js';

/** A claim that is a number: '50', '50+', '1,000+' (as the operator types it in Settings → Site content). */
const NUMBER_CLAIM = /^(\d[\d,]*)(\+?)$/;

/**
 * The locations claim (already in `locale`'s language: `siteContentFor`) as a page in `locale` writes
 * it: a number in the language's digits ('50+' is '۵۰+' in Persian, '1,000+' is '1 000+' in Russian),
 * anything else as the operator wrote it. The server fills a prerendered page's token with it
 * (static-site fillTemplate) and the page hydrates with the same (web useLocationsClaim), so the digits
 * are the page's from the first paint, for crawlers and visitors without JavaScript too.
 */
export function localizeLocationsClaim(claim: string, locale: Locale): string {
  const number = NUMBER_CLAIM.exec(claim.trim());
  if (!number) return claim;
  return `${new Intl.NumberFormat(locale).format(+number[1]!.replaceAll(',', ''))}${number[2]}`;
}
