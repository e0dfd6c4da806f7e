/**
 * The credit ledger every payment, refund, referral reward and wallet top-up writes to (a row per movement, in the
 * database transaction of the change that made it), and credit spent at checkout. The modules that move credit
 * import it from here, never from its files (server/src/modules/module-imports.test.ts).
 */
export { recordCreditMove } from './credit-moves.js';
export { RENEWAL_NOTE, createCreditSpending, creditFor, type CreditSpending } from './credit-spending.js';
export { createWalletLedger, type WalletLedger } from './wallet-ledger.js';
export { LEDGER, createWalletLedgerRepo, type CreditRow, type NewCredit, type WalletLedgerRepo } from './wallet-ledger.repo.js';
