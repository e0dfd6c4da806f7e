import type { Platform } from '../../../../shared/platforms.js';

/** The setup dialog's tabs, iOS first (the spec's default). */
export const SETUP_PLATFORMS = ['ios', 'android', 'windows', 'macos', 'linux'] as const satisfies readonly Platform[];
export type SetupPlatform = (typeof SETUP_PLATFORMS)[number];
export const DEFAULT_SETUP_PLATFORM: SetupPlatform = 'ios';

export interface PlatformGuide {
  /** The platform's name (not translated). */
  label: string;
  /** The how-to steps' message ids, in order. */
  stepIds: readonly string[];
}

const OPEN_STEP = 'account.guide.openStep';

/** How-to steps per platform; Hiddify is the recommended client everywhere (see the download pages). */
export const PLATFORM_GUIDES: Record<SetupPlatform, PlatformGuide> = {
  ios: {
    label: 'iOS',
    stepIds: ['account.guide.ios.install', OPEN_STEP, 'account.guide.ios.connect'],
  },
  android: {
    label: 'Android',
    stepIds: ['account.guide.android.install', OPEN_STEP, 'account.guide.android.connect'],
  },
  windows: {
    label: 'Windows',
    stepIds: ['account.guide.windows.install', 'account.guide.windows.open', 'account.guide.windows.connect'],
  },
  macos: {
    label: 'macOS',
    stepIds: ['account.guide.macos.install', 'account.guide.macos.open', 'account.guide.macos.connect'],
  },
  linux: {
    label: 'Linux',
    stepIds: ['account.guide.linux.install', 'account.guide.linux.open', 'account.guide.linux.connect'],
  },
};
