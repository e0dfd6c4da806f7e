/**
 * What the referrals module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts). The rest of the folder is its own to change.
 */
export { type referralsModule } from './referrals.module.js';
export { type NewCredit, type ReferralsRepo } from './referrals.repo.js';
