/**
 * Which web pages the app hands to the system browser: https pages (the website's dashboard, a VPN
 * client's download page), and http only on this machine (a local server during development). Never
 * `file:`, `javascript:`, a custom scheme (those are deep links: vpn-clients.ts) or a URL with a
 * user name or password in it.
 */

export const MAX_EXTERNAL_URL_LENGTH = 2048;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The URL to open, normalised, or null when it is not allowed. */
export function allowedExternalUrl(input: string): string | null {
  if (input.length > MAX_EXTERNAL_URL_LENGTH || !/^[\x21-\x7e]+$/.test(input)) return null;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return null;
  }
  if (url.username !== '' || url.password !== '') return null;
  if (url.protocol === 'https:') return url.href;
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)) return url.href;
  return null;
}

/** Opens an allowed page in the system browser; `{ opened: false }` for anything else. */
export async function openExternalPage(input: string, openExternal: (url: string) => Promise<void>): Promise<{ opened: boolean }> {
  const url = allowedExternalUrl(input);
  if (!url) return { opened: false };
  try {
    await openExternal(url);
    return { opened: true };
  } catch {
    return { opened: false };
  }
}
