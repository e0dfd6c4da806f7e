/**
 * Every page of the site as data: its path, the title and description for search engines and
 * link previews, and the heading it shows. `{brand}` stands for the brand name from settings.
 * The router, the prerender step, the server (which pages exist) and the tests all read this.
 */
import { NOT_FOUND_TITLE, PAGE_TITLES } from './page-titles.js';
import { ADMIN_TAB_IDS, adminTabPath } from './admin-tabs.js';
import { PLATFORMS, PLATFORM_NAMES } from './platforms.js';

export { PLATFORMS, PLATFORM_NAMES, type Platform } from './platforms.js';
export { documentTitle, withBrand } from './page-titles.js';

export interface SitePage {
  path: string;
  /** From PAGE_TITLES: the document title before ` | {brand}`. */
  title: string;
  description: string;
  /** The page's <h1>. */
  heading: string;
  /** Public pages are rendered to HTML at build time and listed in sitemap.xml. */
  kind: 'public' | 'app';
  /** Shows the plans on sale: the server renders it on request (cached for seconds), not the build. */
  live?: boolean;
}

/** A feature the site advertises only when the operator offers it (Settings → Site content). */
export type SiteClaim = 'protection';

/** The pages about one optional feature: a 404, and left out of the sitemap and the menus, when it is not offered. */
const CLAIM_PAGES: Readonly<Record<string, SiteClaim>> = { '/features/threat-protection': 'protection' };

export function claimOf(path: string): SiteClaim | undefined {
  return CLAIM_PAGES[path];
}

export function offers(config: { protectionFeatures: boolean }, claim: SiteClaim | undefined): boolean {
  return claim !== 'protection' || config.protectionFeatures;
}

const titleOf = (path: string) => PAGE_TITLES[path] ?? NOT_FOUND_TITLE;
const page = (path: string, heading: string, description: string): SitePage => ({
  path,
  title: titleOf(path),
  heading,
  description,
  kind: 'public',
});
/** `titled`: the path whose title it shares (an admin tab is the Admin Panel). */
const appPage = (path: string, titled = path): SitePage => ({ path, title: titleOf(titled), heading: titleOf(titled), description: '', kind: 'app' });

export const FEATURE_PAGES: SitePage[] = [
  page('/features/locations', '50+ Global Locations', 'Servers in more than 50 locations across North America, Europe, Asia Pacific and the Middle East.'),
  page('/features/threat-protection', 'Advanced Threat Protection', 'Block malicious sites, trackers and phishing before they reach your device.'),
  page(
    '/features/multiple-devices',
    'Protect All Your Devices',
    'One subscription for your smartphones, laptops, desktops and tablets, on every major platform.',
  ),
  page('/features/high-speed-vpn', 'Lightning-Fast VPN', '10 Gbps servers, under 50 ms latency and 99.9% uptime for streaming, gaming and work.'),
  page('/features/money-back-guarantee', '30-Day Money-Back Guarantee', 'Try it without risk: a full refund within 30 days of purchase, no questions asked.'),
  page('/features/no-tracking', 'No User Tracking', 'No connection logs, no tracking, no selling of data. Your activity stays yours.'),
];

export const TRUST_PAGES: SitePage[] = [
  page('/why-trust-us/open-source', 'Open Source', 'The software behind the service is open for anyone to inspect, audit and improve.'),
  page('/why-trust-us/anonymous-accounts', 'Anonymous Accounts', 'Sign up with nothing but an e-mail address: no name, no phone number, no password.'),
  page('/why-trust-us/code-transparency', 'Code Transparency', 'How we build in the open: public code that anyone can read, audit and improve.'),
  page('/why-trust-us/crypto-payment', 'Private Payments', 'How we keep payments private, and where cryptocurrency payments stand.'),
];

export const LEGAL_PAGES: SitePage[] = [
  page('/privacy', 'Privacy Policy', 'What we collect, what we never collect, and your rights over your data.'),
  page('/terms', 'Terms of Service', 'The terms that apply when you use the service.'),
  page('/cookies', 'Cookie Policy', 'We use only essential cookies: session, authentication and security.'),
  page('/gdpr', 'GDPR Compliance', 'Your rights under the General Data Protection Regulation and how to exercise them.'),
];

export const DOWNLOAD_PAGES: SitePage[] = PLATFORMS.map((platform) => {
  const name = PLATFORM_NAMES[platform];
  return page(`/download/${platform}`, `{brand} for ${name}`, `Download a VPN client for ${name}, import your {brand} subscription and connect in minutes.`);
});

export const SUPPORT_PAGES: SitePage[] = [
  page('/support', 'How can we help?', 'Get help with setup, your account and billing, or get in touch with our team.'),
  page('/help', 'Help Center', 'Step-by-step guides: signing in, setting up your VPN client, and fixing connection problems.'),
  page('/contact', 'Contact Us', 'Reach the support team by e-mail. We answer every message.'),
  page('/status', 'Service Status', 'Live status of the website, the database and every VPN region.'),
  page('/server-status', 'Service Status', 'Live status of the website, the database and every VPN region.'),
];

export const HOME_PAGE: SitePage = {
  ...page('/', "We're what we believe!", 'A fast, private VPN with anonymous accounts, open code and no connection logs.'),
  live: true,
};
export const PRICING_PAGE: SitePage = {
  ...page('/pricing', 'Simple, Honest Pricing', 'Compare plans and prices, with a 30-day money-back guarantee on every plan.'),
  live: true,
};
export const LOGIN_PAGE = page('/login', 'Welcome to {brand}', 'Sign in or create your account with a one-time code sent to your e-mail. No password needed.');
export const NOT_FOUND_PAGE = page('/404', 'Page Not Found', 'The page you were looking for does not exist.');

export const PUBLIC_PAGES: SitePage[] = [
  HOME_PAGE,
  PRICING_PAGE,
  ...FEATURE_PAGES,
  ...TRUST_PAGES,
  ...LEGAL_PAGES,
  ...DOWNLOAD_PAGES,
  ...SUPPORT_PAGES,
  LOGIN_PAGE,
];

/** Pages drawn in the browser only: they depend on the visitor's session or navigation state. */
export const APP_PAGES: SitePage[] = [
  appPage('/dashboard'),
  appPage('/thank-you'),
  appPage('/referrals'),
  appPage('/wallet'),
  // Every admin tab has its own path (`/admin/payments`): a reload or a shared link opens that tab.
  ...ADMIN_TAB_IDS.map((tab) => appPage(adminTabPath(tab), '/admin')),
  appPage('/admin/users/:id', '/admin'),
  // A section of the Settings tab (`/admin/settings/payments`).
  appPage('/admin/settings/:section', '/admin'),
  appPage('/create'),
  appPage('/setup'),
  // A payment link from the Telegram bot: signs its customer in and opens the checkout (the token is the link's own).
  appPage('/pay/:token', '/pay'),
];
