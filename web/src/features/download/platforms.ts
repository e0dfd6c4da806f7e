import type { ComponentType, SVGProps } from 'react';
import { DOWNLOAD_PAGES, withBrand, type Platform } from '../../app/site-pages';
import { BoltIcon, CodeIcon, DevicesIcon, GlobeIcon, ShieldIcon } from '../../components/icons';
import { EyeOffIcon, LockIcon, SlidersIcon, WifiIcon } from '../../components/content/content-icons';

/**
 * What each download page says. One template shows them all; `{brand}` stands for the brand name.
 * The recommended client is Hiddify: open source, on every platform, and it reads our subscription
 * link directly (see spec/clients.md).
 */
export interface PlatformFeature {
  title: string;
  description: string;
  Icon: ComponentType<SVGProps<SVGSVGElement>>;
}

export interface SystemRequirement {
  label: string;
  value: string;
}

export interface SetupStep {
  title: string;
  description: string;
}

export interface DownloadLink {
  label: string;
  /** A short note under the label, e.g. "Recommended" or "x64 installer from GitHub". */
  detail: string;
  href: string;
}

export interface PlatformContent {
  subtitle: string;
  features: readonly PlatformFeature[];
  requirements: readonly SystemRequirement[];
  steps: readonly SetupStep[];
  downloads: readonly DownloadLink[];
  closing: { title: string; text: string };
}

export const HIDDIFY_RELEASES_URL = 'https://github.com/hiddify/hiddify-app/releases/latest';
export const HIDDIFY_GOOGLE_PLAY_URL = 'https://play.google.com/store/apps/details?id=app.hiddify.com';
export const HIDDIFY_APP_STORE_URL = 'https://apps.apple.com/us/app/hiddify-proxy-vpn/id6596777532';
export const HIDDIFY_MICROSOFT_STORE_URL = 'https://apps.microsoft.com/detail/9pdfnl3qv2s5';

const RELEASES_DETAIL = 'From the latest release on GitHub';
const STORE_DETAIL = 'Recommended: updates automatically';
const CLOSING_TEXT = 'Start with a free trial. No credit card, no personal information: just your e-mail address.';

function setupSteps(download: string, install: string): SetupStep[] {
  return [
    { title: 'Download the client', description: download },
    { title: 'Install it', description: install },
    {
      title: 'Import your configuration',
      description:
        'Sign in to {brand}, open My VPN Accounts and copy your subscription URL. In Hiddify, tap the + button and choose "Add from clipboard", or scan the QR code shown next to your account.',
    },
    {
      title: 'Connect',
      description:
        'Pick your {brand} profile and press the big connect button. Hiddify picks the fastest server for you; your servers update on their own when you renew.',
    },
  ];
}

const COMMON_FEATURES: Record<'noLogs' | 'locations' | 'oneSubscription' | 'openSource', PlatformFeature> = {
  openSource: {
    title: 'Open source',
    description: 'Hiddify is free, ad-free and open source: anyone can read the code it runs.',
    Icon: CodeIcon,
  },
  noLogs: {
    title: 'No connection logs',
    description: 'We never record the sites you visit or what you download. Your activity stays yours.',
    Icon: EyeOffIcon,
  },
  locations: {
    title: '{locations} locations',
    description: 'Servers around the world: pick the one closest to you, or wherever you need to appear.',
    Icon: GlobeIcon,
  },
  oneSubscription: {
    title: 'One subscription, every device',
    description: 'Use the same {brand} subscription on your phone, tablet and computers at no extra cost.',
    Icon: DevicesIcon,
  },
};

export const PLATFORM_CONTENT: Record<Platform, PlatformContent> = {
  windows: {
    subtitle:
      'Protect your Windows PC with the open-source Hiddify app and your {brand} subscription. Set up in minutes, connect in one click.',
    features: [
      {
        title: 'Whole-system protection',
        description: 'Hiddify\'s VPN (TUN) mode secures every app on your PC, not just your browser.',
        Icon: ShieldIcon,
      },
      COMMON_FEATURES.noLogs,
      COMMON_FEATURES.locations,
      {
        title: 'Starts with Windows',
        description: 'Let Hiddify start when you sign in to Windows, so protection is always one click away.',
        Icon: BoltIcon,
      },
      COMMON_FEATURES.openSource,
      COMMON_FEATURES.oneSubscription,
    ],
    requirements: [
      { label: 'Operating system', value: 'Windows 10 or Windows 11, 64-bit' },
      { label: 'Memory', value: '2 GB RAM' },
      { label: 'Storage', value: '100 MB free space' },
    ],
    steps: setupSteps(
      'Get Hiddify from the Microsoft Store, or download the .msix installer from the latest Hiddify release on GitHub.',
      'The Microsoft Store installs it for you. For the .msix file, double-click it and choose Install. Allow the app to make changes when Windows asks.',
    ),
    downloads: [
      { label: 'Microsoft Store', detail: STORE_DETAIL, href: HIDDIFY_MICROSOFT_STORE_URL },
      { label: 'Windows installer (.msix)', detail: RELEASES_DETAIL, href: HIDDIFY_RELEASES_URL },
    ],
    closing: {
      title: 'Secure your Windows PC today',
      text: CLOSING_TEXT,
    },
  },
  macos: {
    subtitle:
      'Keep your Mac private with the open-source Hiddify app and your {brand} subscription. Native on Apple Silicon.',
    features: [
      {
        title: 'Built for Apple Silicon',
        description: 'Runs natively on M-series Macs, light on battery and quick to connect.',
        Icon: BoltIcon,
      },
      COMMON_FEATURES.noLogs,
      COMMON_FEATURES.locations,
      {
        title: 'Menu bar control',
        description: 'Connect, disconnect and switch locations from the menu bar without opening a window.',
        Icon: SlidersIcon,
      },
      COMMON_FEATURES.openSource,
      COMMON_FEATURES.oneSubscription,
    ],
    requirements: [
      { label: 'Operating system', value: 'macOS 11 Big Sur or later' },
      { label: 'Processor', value: 'Apple Silicon (M1 or newer)' },
      { label: 'Memory', value: '4 GB RAM' },
      { label: 'Storage', value: '100 MB free space' },
    ],
    steps: setupSteps(
      'Get Hiddify from the App Store, or download the universal DMG from the latest Hiddify release on GitHub.',
      'The App Store installs it for you. For the DMG, open it and drag Hiddify into Applications. When you first connect, allow macOS to add the VPN configuration.',
    ),
    downloads: [
      { label: 'App Store', detail: STORE_DETAIL, href: HIDDIFY_APP_STORE_URL },
      { label: 'Universal DMG', detail: RELEASES_DETAIL, href: HIDDIFY_RELEASES_URL },
    ],
    closing: {
      title: 'Secure your Mac today',
      text: CLOSING_TEXT,
    },
  },
  linux: {
    subtitle:
      'Private browsing on your Linux desktop with the open-source Hiddify app and your {brand} subscription. AppImage, .deb and .rpm.',
    features: [
      {
        title: 'Packages for your distribution',
        description: 'A portable AppImage plus native .deb and .rpm packages for Ubuntu, Debian and Fedora.',
        Icon: DevicesIcon,
      },
      COMMON_FEATURES.noLogs,
      COMMON_FEATURES.locations,
      {
        title: 'System-wide tunnel',
        description: 'VPN (TUN) mode routes every application through the encrypted tunnel.',
        Icon: ShieldIcon,
      },
      {
        title: 'Open source',
        description: 'Hiddify is free, ad-free and open source: build it yourself if you prefer.',
        Icon: CodeIcon,
      },
      COMMON_FEATURES.oneSubscription,
    ],
    requirements: [
      { label: 'Distribution', value: 'Ubuntu 20.04+, Debian 11+ or Fedora 35+' },
      { label: 'Architecture', value: 'x86_64 (64-bit)' },
      { label: 'Memory', value: '2 GB RAM' },
      { label: 'Storage', value: '100 MB free space' },
    ],
    steps: setupSteps(
      'Download the AppImage, the .deb package (Ubuntu, Debian) or the .rpm package (Fedora) from the latest Hiddify release on GitHub.',
      'Install the package with your package manager (for example sudo apt install ./Hiddify*.deb or sudo dnf install ./Hiddify*.rpm), or make the AppImage executable with chmod +x and run it.',
    ),
    downloads: [
      { label: 'AppImage', detail: 'Runs on most distributions', href: HIDDIFY_RELEASES_URL },
      { label: '.deb package', detail: 'Ubuntu and Debian', href: HIDDIFY_RELEASES_URL },
      { label: '.rpm package', detail: 'Fedora', href: HIDDIFY_RELEASES_URL },
    ],
    closing: {
      title: 'Secure your Linux desktop today',
      text: CLOSING_TEXT,
    },
  },
  android: {
    subtitle:
      'Protect your Android phone and tablet on any network with the open-source Hiddify app and your {brand} subscription.',
    features: [
      {
        title: 'Safe on public Wi-Fi',
        description: 'Encrypt your traffic in cafés, airports and hotels, where anyone could be listening.',
        Icon: WifiIcon,
      },
      COMMON_FEATURES.noLogs,
      COMMON_FEATURES.locations,
      {
        title: 'Per-app routing',
        description: 'Choose which apps use the VPN and which connect directly.',
        Icon: SlidersIcon,
      },
      {
        title: 'Light on battery',
        description: 'Modern protocols keep the connection quick without draining your battery.',
        Icon: BoltIcon,
      },
      COMMON_FEATURES.oneSubscription,
    ],
    requirements: [
      { label: 'Operating system', value: 'Android 6.0 or later' },
      { label: 'Memory', value: '2 GB RAM' },
      { label: 'Storage', value: '100 MB free space' },
    ],
    steps: setupSteps(
      'Get Hiddify from Google Play, or download the universal APK from the latest Hiddify release on GitHub.',
      'Google Play installs it for you. For the APK, open the file and allow installing from this source when Android asks. Allow the VPN connection request the first time you connect.',
    ),
    downloads: [
      { label: 'Google Play', detail: STORE_DETAIL, href: HIDDIFY_GOOGLE_PLAY_URL },
      { label: 'Universal APK', detail: RELEASES_DETAIL, href: HIDDIFY_RELEASES_URL },
    ],
    closing: {
      title: 'Secure your Android device today',
      text: CLOSING_TEXT,
    },
  },
  ios: {
    subtitle:
      'Keep your iPhone and iPad private with the open-source Hiddify app and your {brand} subscription.',
    features: [
      {
        title: 'Safe on public Wi-Fi',
        description: 'Encrypt your traffic in cafés, airports and hotels, where anyone could be listening.',
        Icon: WifiIcon,
      },
      COMMON_FEATURES.noLogs,
      COMMON_FEATURES.locations,
      {
        title: 'iPhone and iPad',
        description: 'One app for both, with the same subscription and the same servers.',
        Icon: LockIcon,
      },
      COMMON_FEATURES.openSource,
      COMMON_FEATURES.oneSubscription,
    ],
    requirements: [
      { label: 'Operating system', value: 'iOS 15 or later' },
      { label: 'Device', value: 'iPhone or iPad' },
      { label: 'Storage', value: '100 MB free space' },
    ],
    steps: setupSteps(
      'Get Hiddify from the App Store.',
      'The App Store installs it for you. The first time you connect, tap Allow so iOS can add the VPN configuration.',
    ),
    downloads: [{ label: 'App Store', detail: 'iPhone and iPad', href: HIDDIFY_APP_STORE_URL }],
    closing: {
      title: 'Secure your iPhone and iPad today',
      text: CLOSING_TEXT,
    },
  },
};

/** The page's <h1>, exactly as the page table words it (e.g. "Lumen VPN for Windows"). */
export function downloadHeading(platform: Platform, brandName: string): string {
  const sitePage = DOWNLOAD_PAGES.find((page) => page.path === `/download/${platform}`);
  if (!sitePage) throw new Error(`No download page for ${platform}`);
  return withBrand(sitePage.heading, brandName);
}
