/**
 * Which server paths the renderer may call through the bridge: `/api/…` except the admin API, written
 * plainly (no `//`, no `.`/`..` segments even percent-encoded, no backslash, no fragment, printable ASCII only), so the URL
 * the main process builds is exactly the one that was checked.
 */

export const MAX_API_PATH_LENGTH = 2048;

const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

export function isAllowedApiPath(path: string): boolean {
  if (path.length > MAX_API_PATH_LENGTH || !PRINTABLE_ASCII.test(path)) return false;
  if (!path.startsWith('/api/') || path.includes('\\') || path.includes('#')) return false;
  const [pathname = ''] = path.split('?', 1);
  const decoded = decodePath(pathname);
  if (decoded === null || decoded.includes('\\') || /[\x00-\x1f\x7f]/.test(decoded)) return false;
  const segments = decoded.split('/').slice(1);
  const isLast = (index: number) => index === segments.length - 1;
  // An empty segment is a `//` (refused) or a trailing slash (allowed).
  if (segments.some((segment, index) => segment === '.' || segment === '..' || (segment === '' && !isLast(index)))) {
    return false;
  }
  const lower = decoded.toLowerCase();
  if (lower === '/api/admin' || lower.startsWith('/api/admin/')) return false;
  return new URL(path, 'http://server.invalid').pathname === pathname;
}

function decodePath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}
