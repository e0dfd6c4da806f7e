/**
 * What the wallet module offers the others: they import it from here, never from its files (a test checks it;
 * server/src/modules/module-imports.test.ts). The rest of the folder is its own to change.
 */
export { recordCreditMove } from './credit-moves.js';
export { RENEWAL_NOTE, createCreditSpending, creditFor, type CreditSpending } from './credit-spending.js';
export { type WalletLedger } from './wallet-ledger.js';
export { LEDGER, createWalletLedgerRepo, type CreditRow, type NewCredit, type WalletLedgerRepo } from './wallet-ledger.repo.js';
