import type { Core } from '../module.js';
import { defineModule, route } from '../module.js';
import { desktopUpdatesRoutes } from './desktop-updates.routes.js';
import { createReleaseFeeds } from './release-feeds.js';

/** The desktop app's update feeds, served from DESKTOP_UPDATES_DIR. */
export const desktopReleasesModule = defineModule({
  name: 'desktop-releases',
  build({ config, log }: Core) {
    return { desktopReleases: createReleaseFeeds({ dir: config.desktopUpdatesDir, warn: (message) => log.warn(message) }) };
  },
  routes: ({ config, desktopReleases }) => [route(desktopUpdatesRoutes, { dir: config.desktopUpdatesDir, feeds: desktopReleases })],
});
