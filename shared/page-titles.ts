import { PLATFORMS, PLATFORM_NAMES } from './platforms.js';

/**
 * The document title of every page, before ` | {brand}`. Kept apart from the rest of the page table
 * (headings, descriptions) because the browser needs only this, on every page.
 */
export const PAGE_TITLES: Record<string, string> = {
  '/': '{brand} | Fast, private VPN',
  '/pricing': 'Pricing',
  '/features/locations': 'Global Locations',
  '/features/threat-protection': 'Threat Protection',
  '/features/multiple-devices': 'Multiple Devices',
  '/features/high-speed-vpn': 'High-Speed VPN',
  '/features/money-back-guarantee': 'Money-Back Guarantee',
  '/features/no-tracking': 'No Tracking',
  '/why-trust-us/open-source': 'Open Source',
  '/why-trust-us/anonymous-accounts': 'Anonymous Accounts',
  '/why-trust-us/code-transparency': 'Code Transparency',
  '/why-trust-us/crypto-payment': 'Crypto Payment',
  '/privacy': 'Privacy Policy',
  '/terms': 'Terms of Service',
  '/cookies': 'Cookie Policy',
  '/gdpr': 'GDPR',
  ...Object.fromEntries(PLATFORMS.map((p) => [`/download/${p}`, `VPN for ${PLATFORM_NAMES[p]}`])),
  '/support': 'Support',
  '/help': 'Help Center',
  '/contact': 'Contact Us',
  '/status': 'Service Status',
  '/server-status': 'Server Status',
  '/login': 'Sign In',
  '/dashboard': 'My VPN Accounts',
  '/thank-you': 'Thank You',
  '/referrals': 'Invite Friends',
  '/wallet': 'Balance',
  '/admin': 'Admin Panel',
  '/create': 'Create VPN Account',
  '/setup': 'Set Up Your VPN',
  '/pay': 'Payment',
};

export const NOT_FOUND_TITLE = 'Page Not Found';

export function withBrand(text: string, brandName: string): string {
  return text.replaceAll('{brand}', brandName);
}

/** The full document title for a path (the 404 title for a path that is no page). */
export function documentTitle(pathname: string, brandName: string): string {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const title = PAGE_TITLES[path];
  if (path === '/' && title) return withBrand(title, brandName);
  return `${withBrand(title ?? NOT_FOUND_TITLE, brandName)} | ${brandName}`;
}
