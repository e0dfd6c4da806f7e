import { CREDIT_MIN_CHARGE } from '../../../../shared/referrals.js';
import type { Db } from '../../db/knex.js';
import type { AuditRepo } from '../audit/index.js';
import type { TransactionRecord, TransactionEvent } from '../orders/index.js';
import { recordCreditMove } from './credit-moves.js';
import type { NewCredit, WalletLedgerRepo } from './wallet-ledger.repo.js';

/** The note of a `spent` movement that paid part of a one-off order (and of the `restored` one when the order closed unpaid). */
export const PURCHASE_NOTE = 'purchase';
/** The note of credit spent on renewing an account (the wallet calls the movement a renewal). */
export const RENEWAL_NOTE = 'renewal';

/**
 * How much of `available` credit pays an order of `total`: all of it when the credit covers the order (nothing is
 * left to pay); otherwise as much as leaves at least CREDIT_MIN_CHARGE to pay (none when the order is that small).
 */
export function creditFor(total: number, available: number): number {
  if (total <= 0 || available <= 0) return 0;
  if (available >= total) return total;
  return Math.max(0, Math.min(available, total - CREDIT_MIN_CHARGE));
}

/**
 * The referrer's available credit spent on their own one-off orders (a purchase that does not subscribe, a renewal
 * by hand): taken off the order's price when the order is written, as a `spent` movement in the same database
 * transaction as the order's rows (with the user's row held, so two orders, or an order and a move to the
 * provider's balance, cannot spend one credit twice). An order that closes unpaid, or is refunded, gives it back
 * (`restored`); one paid after it had closed takes it again.
 */
export function createCreditSpending(deps: { repo: WalletLedgerRepo; audit: AuditRepo }) {
  const { repo } = deps;

  const move = (credit: NewCredit, now: Date, trx: Db) => recordCreditMove(deps, credit, now, trx);

  /** What the order's spending and restorings add up to now (negative: credit it holds). */
  async function heldBy(transactionId: string, trx: Db): Promise<number> {
    const rows = (await repo.creditsOfTransaction(transactionId, trx)).filter((row) => row.kind === 'spent' || row.kind === 'restored');
    return rows.reduce((sum, row) => sum + row.amount, 0);
  }

  async function available(userId: string, currency: string, now: Date, trx?: Db): Promise<number> {
    return (await repo.balances(userId, now, trx)).find((balance) => balance.currency === currency)?.available ?? 0;
  }

  /** The order closed unpaid (`note` purchase) or was refunded (`refunded`): what it spent comes back, available at once. */
  async function restore(transaction: TransactionRecord, now: Date, trx: Db, note = PURCHASE_NOTE): Promise<void> {
    const held = await heldBy(transaction.id, trx);
    if (held >= 0) return;
    await move(
      {
        userId: transaction.userId,
        referralId: null,
        transactionId: transaction.id,
        kind: 'restored',
        amount: -held,
        currency: transaction.currency,
        availableAt: now,
        note,
      },
      now,
      trx,
    );
  }

  /** An order paid after it had closed (and its credit come back): it is spent again, as the order was priced with it. */
  async function respend(transaction: TransactionRecord, now: Date, trx: Db): Promise<void> {
    const ordered = transaction.metadata.credit_spent ?? 0;
    if (ordered <= 0) return;
    const held = await heldBy(transaction.id, trx);
    if (held + ordered <= 0) return;
    await move(
      {
        userId: transaction.userId,
        referralId: null,
        transactionId: transaction.id,
        kind: 'spent',
        amount: -(held + ordered),
        currency: transaction.currency,
        availableAt: now,
        note: PURCHASE_NOTE,
      },
      now,
      trx,
    );
  }

  return {
    /** The order's checkout was never opened (the provider refused it): its credit comes back. */
    restore: (transaction: TransactionRecord, now: Date, trx: Db) => restore(transaction, now, trx),

    /**
     * billing.repo's transition listener (beside the rewards'): an order that closes unpaid (failed, cancelled) or is
     * refunded gives its credit back; one paid after all takes it again. Under review it stays spent; a lost
     * dispute keeps it spent (the card's money went back, not the credit).
     */
    async onTransition(transaction: TransactionRecord, event: TransactionEvent, now: Date, trx: Db): Promise<void> {
      if (!transaction.metadata.credit_spent) return;
      if (event === 'failed' || event === 'cancelled') await restore(transaction, now, trx);
      else if (event === 'refunded') await restore(transaction, now, trx, 'refunded');
      else if (event === 'paid' || event === 'paid_after_review') await respend(transaction, now, trx);
    },

    /** Credit the customer could spend now, in `currency` (a quote's figure; nothing is held). */
    available: (userId: string, currency: string, now: Date) => available(userId, currency, now),

    /**
     * Spends the credit that pays part (or all) of a new order of `total`, in the order's database transaction;
     * returns what it spent. `leaveCharge`: the order is paid at a provider, so it is never paid entirely by
     * credit (at least CREDIT_MIN_CHARGE is left to pay).
     */
    async spend(
      trx: Db,
      order: { userId: string; currency: string; total: number; transactionId: string; leaveCharge: boolean; note?: string },
      now: Date,
    ): Promise<number> {
      await repo.lockUser(order.userId, trx);
      const credit = creditFor(order.total, await available(order.userId, order.currency, now, trx));
      const spent = order.leaveCharge && credit === order.total ? Math.max(0, order.total - CREDIT_MIN_CHARGE) : credit;
      if (spent <= 0) return 0;
      await move(
        {
          userId: order.userId,
          referralId: null,
          transactionId: order.transactionId,
          kind: 'spent',
          amount: -spent,
          currency: order.currency,
          availableAt: now,
          note: order.note ?? PURCHASE_NOTE,
        },
        now,
        trx,
      );
      return spent;
    },
  };
}

export type CreditSpending = ReturnType<typeof createCreditSpending>;
