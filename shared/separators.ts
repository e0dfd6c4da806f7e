import type { Locale } from './locales.js';

/**
 * Between the parts of a one-line summary ('Plus 1 Month · Frankfurt', 'Renews on … · $4.99'), in each
 * language. Persian does not get the middle dot: beside Persian digits '·' reads as the Persian zero '۰'.
 */
export const PART_SEPARATOR: Readonly<Record<Locale, string>> = { en: ' · ', ru: ' · ', fa: ' – ', 'zh-CN': ' · ' };

/** The parts one after another with the language's separator (PART_SEPARATOR). */
export function joinParts(parts: readonly string[], locale: Locale): string {
  return parts.join(PART_SEPARATOR[locale]);
}
