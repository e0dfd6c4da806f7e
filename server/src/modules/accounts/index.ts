/**
 * What the accounts module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts). The rest of the folder is its own to change.
 */
export { expiryAfterDays, generateSubToken, generateUsername } from './account-values.js';
export { type WithAccounts } from './accounts.module.js';
export { type AccountRecord, type AccountsRepo } from './accounts.repo.js';
export { type AccountsService } from './accounts.service.js';
export { panelUsage, panelValues, usageColumns, type PanelValues } from './panel-values.js';
export { provisionedFields, type Provisioner } from './provisioning.js';
