/**
 * The operator's own desktop app as published for auto-update (issue 28): what the storefront found in
 * `DESKTOP_UPDATES_DIR/<channel>/` (the update feeds electron-builder writes, and the installers beside them).
 */
export const DESKTOP_CHANNELS = ['stable', 'beta'] as const;
export type DesktopChannel = (typeof DESKTOP_CHANNELS)[number];

/** The desktop operating systems the app is built for, as the download pages name them. */
export const DESKTOP_PLATFORMS = ['windows', 'macos', 'linux'] as const;
export type DesktopPlatform = (typeof DESKTOP_PLATFORMS)[number];

export interface DesktopInstaller {
  /** The file's name, e.g. `Lumen VPN Setup 1.2.0.exe`. */
  name: string;
  /** What kind of installer: the file's extension (exe, msix, appx, dmg, zip, AppImage, deb, rpm). */
  kind: string;
  /** Where to download it, on this server. */
  url: string;
  size: number;
  /** Hex SHA-256 of the file, for visitors to check what they downloaded. */
  sha256: string;
}

export interface DesktopPlatformRelease {
  version: string;
  releaseDate: string | null;
  /** The installers for people, the one to offer first first (an update-only zip is not among them). */
  installers: DesktopInstaller[];
}

/** One channel: the release published per platform (a platform may lag behind another, or have none). */
export type DesktopChannelRelease = Partial<Record<DesktopPlatform, DesktopPlatformRelease>>;

/** `GET /api/desktop/releases` and the admin's System tab. */
export interface DesktopReleasesResponse {
  channels: Record<DesktopChannel, DesktopChannelRelease>;
}
