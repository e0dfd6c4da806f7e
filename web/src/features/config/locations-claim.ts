import type { Formatters } from '../../i18n/format';

/** A claim that is a number: '50', '50+', '1,000+' (as the operator types it in Settings → Site content). */
const NUMBER_CLAIM = /^(\d{1,3}(?:,\d{3})+|\d+)(\+?)$/;

/**
 * The locations claim as the page writes it: a number in the page's digits ('50+' is '۵۰+' on a
 * Persian page, '1,000+' is '1 000+' on a Russian one), anything else as the operator wrote it
 * (their words are already in this language, from `siteContentFor`), isolated by `isolate` so an
 * English claim keeps its order inside a right-to-left sentence.
 */
export function localizedLocationsClaim(claim: string, format: Pick<Formatters, 'number'>, isolate: (text: string) => string): string {
  const trimmed = claim.trim();
  const number = NUMBER_CLAIM.exec(trimmed);
  if (!number) return isolate(claim);
  return `${format.number(Number(number[1]!.replaceAll(',', '')))}${number[2]}`;
}
