import { useLocale } from './locale-context';

/** FIRST STRONG ISOLATE … POP DIRECTIONAL ISOLATE: the text inside takes the direction of its own first letter. */
const FSI = '\u2068';
const PDI = '\u2069';

/**
 * The operator's words (a plan's name, a tier) inside a sentence of ours, isolated from it: on a
 * right-to-left page "خرید 3-Hour Trial" would otherwise read "خرید Hour Trial-3". The `<bdi>` of
 * a string, for text that ends up in a string (a title, an aria-label).
 */
export function isolate(text: string): string {
  return `${FSI}${text}${PDI}`;
}

/**
 * `isolate` on a right-to-left page; the text as it is elsewhere, where what the operator writes
 * (English, or the page's own language) already runs the page's way.
 */
export function useIsolate(): (text: string) => string {
  const { dir } = useLocale();
  return dir === 'rtl' ? isolate : keep;
}

const keep = (text: string) => text;
