/**
 * Tokens the build leaves in prerendered pages and the server fills in per request from the
 * current settings, so an operator's brand name shows without rebuilding. Shared by the prerender
 * step (writes them) and the server (replaces them).
 */
export const SITE_TOKENS = {
  brandName: '%%BRAND_NAME%%',
  supportEmail: '%%SUPPORT_EMAIL%%',
  publicUrl: '%%PUBLIC_URL%%',
} as const;

/** Where the head tags of a page go, and where the public settings are embedded as JSON. */
export const HEAD_SLOT = '<!--app-head-->';
export const CONFIG_SLOT = '<!--app-config-->';

/** Written next to the built site: which pages exist and which file holds each. */
export interface SiteManifest {
  pages: Array<{ path: string; file: string }>;
  /** Paths drawn in the browser only; they get the empty app shell. */
  appPaths: string[];
  shell: string;
  notFound: string;
}

export const SITE_MANIFEST_FILE = 'manifest.json';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);
}
