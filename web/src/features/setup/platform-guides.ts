import type { Platform } from '../../../../shared/platforms.js';

/** The setup dialog's tabs, iOS first (the spec's default). */
export const SETUP_PLATFORMS = ['ios', 'android', 'windows', 'macos', 'linux'] as const satisfies readonly Platform[];
export type SetupPlatform = (typeof SETUP_PLATFORMS)[number];
export const DEFAULT_SETUP_PLATFORM: SetupPlatform = 'ios';

export interface PlatformGuide {
  label: string;
  steps: readonly string[];
}

const OPEN_STEP =
  'Tap an "Open in" button below: the app opens with your subscription filled in. No button works? Copy the link (or scan the QR code) and add it in the app as a new profile from the clipboard.';

/** How-to steps per platform; Hiddify is the recommended client everywhere (see the download pages). */
export const PLATFORM_GUIDES: Record<SetupPlatform, PlatformGuide> = {
  ios: {
    label: 'iOS',
    steps: [
      'Install Hiddify (or another client listed below) from the App Store.',
      OPEN_STEP,
      'Allow the VPN configuration when iOS asks, then tap Connect.',
    ],
  },
  android: {
    label: 'Android',
    steps: [
      'Install Hiddify from Google Play, or the APK from our Android download page.',
      OPEN_STEP,
      'Accept the connection request Android shows the first time, then tap Connect.',
    ],
  },
  windows: {
    label: 'Windows',
    steps: [
      'Download and install Hiddify for Windows from our Windows download page.',
      'Click an "Open in" button below. If nothing happens, copy the link and add it in the app as a new profile from the clipboard (v2rayN users: add it as a subscription).',
      'Click Connect. Allow the app through the firewall if Windows asks.',
    ],
  },
  macos: {
    label: 'macOS',
    steps: [
      'Download Hiddify for macOS and move it to Applications.',
      'Click an "Open in" button below, or copy the link and add it in the app as a new profile from the clipboard.',
      'Allow the VPN configuration in System Settings when macOS asks, then click Connect.',
    ],
  },
  linux: {
    label: 'Linux',
    steps: [
      'Install Hiddify from our Linux download page (AppImage, .deb or .rpm).',
      'Click an "Open in" button below. An AppImage may not register its link handler: then copy the link and add it in the app as a new profile from the clipboard.',
      'Click Connect. The app may ask for your password to set up the VPN interface.',
    ],
  },
};
