import type { SiteClaim } from '../../../shared/site-pages.js';

/** Every link the header, mobile menu and footer show, in one place. */
export interface NavLink {
  /** The link text's message id (common catalogue)… */
  labelId?: string;
  /** …or a name that reads the same in every language (a platform's). */
  name?: string;
  to: string;
  /** Shown only when the operator offers this feature (hidden by `data-site-flags` on <html>). */
  claim?: SiteClaim;
}

export const PRICING_LINK: NavLink = { labelId: 'nav.pricing', to: '/pricing' };
export const SUPPORT_LINK: NavLink = { labelId: 'nav.support', to: '/support' };

export const FEATURE_LINKS: readonly NavLink[] = [
  { labelId: 'nav.features.locations', to: '/features/locations' },
  { labelId: 'nav.features.threat-protection', to: '/features/threat-protection', claim: 'protection' },
  { labelId: 'nav.features.multiple-devices', to: '/features/multiple-devices' },
  { labelId: 'nav.features.high-speed-vpn', to: '/features/high-speed-vpn' },
  { labelId: 'nav.features.money-back-guarantee', to: '/features/money-back-guarantee' },
  { labelId: 'nav.features.no-tracking', to: '/features/no-tracking' },
];

export const DESKTOP_DOWNLOAD_LINKS: readonly NavLink[] = [
  { name: 'Windows', to: '/download/windows' },
  { name: 'macOS', to: '/download/macos' },
  { name: 'Linux', to: '/download/linux' },
];

export const MOBILE_DOWNLOAD_LINKS: readonly NavLink[] = [
  { name: 'Android', to: '/download/android' },
  { name: 'iOS', to: '/download/ios' },
];

/** The desktop header and the footer link these trust pages… */
export const TRUST_LINKS: readonly NavLink[] = [
  { labelId: 'nav.why-trust-us.open-source', to: '/why-trust-us/open-source' },
  { labelId: 'nav.why-trust-us.anonymous-accounts', to: '/why-trust-us/anonymous-accounts' },
];

/** …and the mobile menu links these (as the spec says). */
export const MOBILE_TRUST_LINKS: readonly NavLink[] = [
  { labelId: 'nav.why-trust-us.code-transparency', to: '/why-trust-us/code-transparency' },
  { labelId: 'nav.why-trust-us.crypto-payment', to: '/why-trust-us/crypto-payment' },
];

export const LEGAL_LINKS: readonly NavLink[] = [
  { labelId: 'nav.privacy', to: '/privacy' },
  { labelId: 'nav.terms', to: '/terms' },
  { labelId: 'nav.cookies', to: '/cookies' },
  { labelId: 'nav.gdpr', to: '/gdpr' },
];

export const SUPPORT_LINKS: readonly NavLink[] = [
  { labelId: 'nav.support', to: '/support' },
  { labelId: 'nav.help', to: '/help' },
  { labelId: 'nav.contact', to: '/contact' },
  { labelId: 'nav.status', to: '/status' },
];

/** A link's text in the current language. */
export const navLabel = (_: (id: string) => string, link: NavLink): string => link.name ?? _(link.labelId ?? '');
