/**
 * What the settings module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts). The rest of the folder is its own to change.
 */
export { type Configured } from './settings.module.js';
export { type SettingsRepo } from './settings.repo.js';
export { storeCurrencyOf, type SettingsService } from './settings.service.js';
