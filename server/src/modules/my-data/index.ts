/**
 * What the my-data module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts). The rest of the folder is its own to change.
 */
export { type MyDataService } from './my-data.service.js';
