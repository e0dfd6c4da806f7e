/** The platforms the site has a download page for. */
export const PLATFORMS = ['windows', 'macos', 'linux', 'android', 'ios'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const PLATFORM_NAMES: Record<Platform, string> = {
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
  android: 'Android',
  ios: 'iOS',
};
