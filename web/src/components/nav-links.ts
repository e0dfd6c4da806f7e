import type { SiteClaim } from '../../../shared/site-pages.js';

/** Every link the header, mobile menu and footer show, in one place. */
export interface NavLink {
  label: string;
  to: string;
  /** Shown only when the operator offers this feature (hidden by `data-site-flags` on <html>). */
  claim?: SiteClaim;
}

export const PRICING_LINK: NavLink = { label: 'Pricing', to: '/pricing' };
export const SUPPORT_LINK: NavLink = { label: 'Support', to: '/support' };

export const FEATURE_LINKS: readonly NavLink[] = [
  { label: 'Global Locations', to: '/features/locations' },
  { label: 'Threat Protection', to: '/features/threat-protection', claim: 'protection' },
  { label: 'Multiple Devices', to: '/features/multiple-devices' },
  { label: 'High-Speed VPN', to: '/features/high-speed-vpn' },
  { label: 'Money-Back Guarantee', to: '/features/money-back-guarantee' },
  { label: 'No Tracking', to: '/features/no-tracking' },
];

export const DESKTOP_DOWNLOAD_LINKS: readonly NavLink[] = [
  { label: 'Windows', to: '/download/windows' },
  { label: 'macOS', to: '/download/macos' },
  { label: 'Linux', to: '/download/linux' },
];

export const MOBILE_DOWNLOAD_LINKS: readonly NavLink[] = [
  { label: 'Android', to: '/download/android' },
  { label: 'iOS', to: '/download/ios' },
];

/** The desktop header and the footer link these trust pages… */
export const TRUST_LINKS: readonly NavLink[] = [
  { label: 'Open Source', to: '/why-trust-us/open-source' },
  { label: 'Anonymous Accounts', to: '/why-trust-us/anonymous-accounts' },
];

/** …and the mobile menu links these (as the spec says). */
export const MOBILE_TRUST_LINKS: readonly NavLink[] = [
  { label: 'Code Transparency', to: '/why-trust-us/code-transparency' },
  { label: 'Crypto Payment', to: '/why-trust-us/crypto-payment' },
];

export const LEGAL_LINKS: readonly NavLink[] = [
  { label: 'Privacy Policy', to: '/privacy' },
  { label: 'Terms of Service', to: '/terms' },
  { label: 'Cookie Policy', to: '/cookies' },
  { label: 'GDPR', to: '/gdpr' },
];

export const SUPPORT_LINKS: readonly NavLink[] = [
  { label: 'Support', to: '/support' },
  { label: 'Help Center', to: '/help' },
  { label: 'Contact Us', to: '/contact' },
  { label: 'Server Status', to: '/status' },
];
