/**
 * A return target passed in a URL (`/login?next=…`), kept only when it is a path on this site: it
 * starts with a single `/`, and nothing in it leaves the site (`//host`, `/\host`, a scheme, control
 * characters). Anything else gives `fallback`. This decides nothing about access: the page it leads
 * to still checks the session.
 */
export function safeReturnPath(raw: string | null | undefined, fallback: string): string {
  if (!raw || raw.length > 2000 || !raw.startsWith('/') || raw.startsWith('//')) return fallback;
  if (/[\\\u0000-\u001f\u007f]/.test(raw)) return fallback;
  const base = 'http://return-path.invalid';
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}
