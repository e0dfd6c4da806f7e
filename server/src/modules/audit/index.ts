/**
 * What the audit module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts). The rest of the folder is its own to change.
 */
export { type AuditRepo } from './audit.repo.js';
export { adminAuditPlugin } from './admin-audit-hook.js';
export { changedFields, maskSecrets } from './audit-context.js';
