import { z } from 'zod';
import {
  DESKTOP_CHANNELS,
  DESKTOP_PLATFORMS,
  type DesktopChannelRelease,
  type DesktopInstaller,
  type DesktopPlatformRelease,
  type DesktopReleasesResponse,
} from '../../../shared/desktop-releases.js';

/** What `GET /api/desktop/releases` answers: the desktop app as published per channel and platform, checked against the shared type. */

/** One installer for people, served from this site. */
const DesktopInstallerAnswer = z.object({
  name: z.string(),
  kind: z.string(),
  url: z.string(),
  size: z.number().int(),
  sha256: z.string(),
}) satisfies z.ZodType<DesktopInstaller>;

/** The release published for one platform. */
const DesktopPlatformReleaseAnswer = z.object({
  version: z.string(),
  releaseDate: z.string().nullable(),
  installers: z.array(DesktopInstallerAnswer),
}) satisfies z.ZodType<DesktopPlatformRelease>;

/** One channel: a platform with nothing published is left out. */
const DesktopChannelReleaseAnswer = z.partialRecord(z.enum(DESKTOP_PLATFORMS), DesktopPlatformReleaseAnswer) satisfies z.ZodType<DesktopChannelRelease>;

/** `GET /api/desktop/releases`: every channel, each with what is published on it. */
export const DesktopReleasesAnswer = z.object({
  channels: z.record(z.enum(DESKTOP_CHANNELS), DesktopChannelReleaseAnswer),
}) satisfies z.ZodType<DesktopReleasesResponse>;
