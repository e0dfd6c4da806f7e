/**
 * What the users module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts). The rest of the folder is its own to change.
 */
export { USER_COLUMNS, toUserProfile, type UserProfile, type UsersRepo } from './users.repo.js';
export { actorOf, toAdminUser, type Actor } from './users.service.js';
export { erasedEmailHash } from './erased-email.js';
