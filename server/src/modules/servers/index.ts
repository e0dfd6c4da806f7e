/**
 * What the servers module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts). The rest of the folder is its own to change.
 */
export { createPanelUrlCheck } from './panel-address.js';
export { publicRegionName } from './public-region.js';
export { regionTranslationsOf } from './region-translations.repo.js';
export { type serversModule } from './servers.module.js';
export { type ServerRecord, type ServersRepo } from './servers.repo.js';
export { type ServersService } from './servers.service.js';
export { tokenDaysLeft } from './token-expiry.js';
