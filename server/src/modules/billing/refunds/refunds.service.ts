import type { RefundBody } from '../../../../../shared/billing-schemas.js';
import type { Actor } from '../../users/index.js';
import { listTransactions, type AdminTransactionsFilter } from './admin-transactions.js';
import { refundTransaction, refundUndeliverable } from './refund-transaction.js';
import type { RefundsDeps } from './refunds-deps.js';
import { refundCap } from './refunds.repo.js';

export type { RefundsDeps } from './refunds-deps.js';

/**
 * The admin's view of payments, and the Refund action. Each use case is a function of its own
 * (admin-transactions.ts, refund-transaction.ts) taking the dependencies first; this binds them once.
 */
export function createRefundsService(deps: RefundsDeps) {
  return {
    /** `method`: how they were paid (its provider's, or `wallet` for orders no provider took). */
    listTransactions: (filter: AdminTransactionsFilter) => listTransactions(deps, filter),
    /** A paid renewal whose account no longer exists: what is left of it goes back, once (see refund-transaction.ts). */
    refundUndeliverable: (transactionId: string, why: string) => refundUndeliverable(deps, transactionId, why),
    /** Refunds the whole remaining amount, or part of it: to the provider, into the wallet or by hand (see refund-transaction.ts). */
    refundTransaction: (actor: Actor, id: string, body: RefundBody) => refundTransaction(deps, actor, id, body),
    /**
     * What a refund asks to give back, before it is made (for the passkey step-up over the store's threshold): the amount
     * sent, or else the whole payment; undefined when there is no such payment (the refund itself answers 404).
     */
    async requestedRefund(id: string, body: Pick<RefundBody, 'amount'>): Promise<{ amount: number; currency: string } | undefined> {
      const transaction = await deps.billing.findTransaction(id);
      return transaction && { amount: body.amount ?? refundCap(transaction), currency: transaction.currency };
    },
  };
}

export type RefundsService = ReturnType<typeof createRefundsService>;
