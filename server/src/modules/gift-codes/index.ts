/**
 * What the gift-codes module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts).
 */
export { type giftCodesModule } from './gift-codes.module.js';
