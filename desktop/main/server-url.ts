/**
 * The server the desktop app talks to: the brand's `serverUrl` (desktop/brand.json, checked by this at
 * build time) until the user chooses another in the app (checked by this again).
 */
const MAX_URL_LENGTH = 2048;
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

export type ServerUrlResult = { ok: true; serverUrl: string } | { ok: false; message: string };

/**
 * A server URL as the app stores it: the origin only (`https://host[:port]`). https for any host,
 * http only for this machine; no user name or password, no path other than `/`, no query or fragment.
 */
export function normaliseServerUrl(input: string): ServerUrlResult {
  const text = input.trim();
  if (text.length === 0) return { ok: false, message: 'Enter the server address.' };
  if (text.length > MAX_URL_LENGTH) return { ok: false, message: 'The server address is too long.' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: 'Enter a full address such as https://vpn.example.com.' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, message: 'The server address must start with https://.' };
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    return { ok: false, message: 'Use https:// (http:// is only allowed for localhost).' };
  }
  if (url.username !== '' || url.password !== '') {
    return { ok: false, message: 'The server address must not contain a user name or password.' };
  }
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '' || /[?#]/.test(text)) {
    return { ok: false, message: 'Enter the server address without a path, e.g. https://vpn.example.com.' };
  }
  return { ok: true, serverUrl: url.origin };
}
