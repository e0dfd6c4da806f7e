/**
 * What the auth module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts). The rest of the folder is its own to change.
 */
export { type RevokeReason } from './sessions.repo.js';
export { type authModule } from './auth.module.js';
export { type RequestMeta } from './auth-deps.js';
