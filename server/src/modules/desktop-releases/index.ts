/**
 * What the desktop-releases module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts). The rest of the folder is its own to change.
 */
export { type desktopReleasesModule } from './desktop-releases.module.js';
export { type ReleaseFeeds } from './release-feeds.js';
