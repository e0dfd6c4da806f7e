import type { Db } from '../../db/knex.js';
import { AppError } from '../../errors.js';
import { WALLET_MESSAGES } from '../../../../shared/wallet.js';
import type { AuditRepo } from '../audit/index.js';
import type { TransactionRecord } from '../orders/index.js';
import type { Actor } from '../users/index.js';
import type { NewCredit, WalletLedgerRepo } from './wallet-ledger.repo.js';

/** The tag of a `refund` movement that took a refunded top-up back out of the wallet. */
export const TOP_UP_REFUNDED_NOTE = 'top_up_refunded';
/** The tag of a `refund` movement that paid a refund into the wallet (a payment Crypto Pay cannot send back). */
export const REFUND_NOTE = 'refund';

/** Who moved money by hand (an admin), for the audit log. */
export type WalletActor = Actor;

/**
 * Money into and out of a customer's wallet, each movement a ledger row and an audit line written in the caller's
 * database transaction, with the customer's row held first (so two movements queue, and what is taken out is
 * never more than the balance). Spending on orders is credit-spending.ts's (it was the referral credit's first).
 */
export function createWalletLedger(deps: { repo: WalletLedgerRepo; audit: AuditRepo }) {
  const { repo } = deps;

  async function move(credit: NewCredit, now: Date, trx: Db, actor: WalletActor | null = null): Promise<number> {
    const id = await repo.insertCredit(credit, now, trx);
    await deps.audit.record(
      {
        actorId: actor?.id ?? null,
        actorEmail: actor?.email ?? null,
        action: `wallet.${credit.kind}`,
        targetType: 'user',
        targetId: credit.userId,
        details: {
          movementId: id,
          transactionId: credit.transactionId,
          amount: credit.amount,
          currency: credit.currency,
          ...(credit.memo ? { note: credit.memo } : {}),
        },
        ip: actor?.ip ?? null,
        now,
      },
      trx,
    );
    return id;
  }

  /** What the user can spend now in `currency` (their row held by the caller when it is about to spend). */
  async function available(userId: string, currency: string, now: Date, trx?: Db): Promise<number> {
    return (await repo.balances(userId, now, trx)).find((balance) => balance.currency === currency)?.available ?? 0;
  }

  return {
    available,

    /** A paid top-up's money, available at once (the caller's conditional status change makes it once). */
    async creditTopUp(transaction: TransactionRecord, now: Date, trx: Db): Promise<void> {
      await move(
        {
          userId: transaction.userId,
          referralId: null,
          transactionId: transaction.id,
          kind: 'top_up',
          amount: transaction.amount,
          currency: transaction.currency,
          availableAt: now,
        },
        now,
        trx,
      );
    },

    /** A downgrade's credit beyond the new plan's price, paid in with the change (its status change makes it once). */
    async creditPlanChange(transaction: TransactionRecord, amount: number, now: Date, trx: Db): Promise<void> {
      await repo.lockUser(transaction.userId, trx);
      await move(
        {
          userId: transaction.userId,
          referralId: null,
          transactionId: transaction.id,
          kind: 'plan_change',
          amount,
          currency: transaction.currency,
          availableAt: now,
        },
        now,
        trx,
      );
    },

    /**
     * A top-up refunded (`amountRefunded` in all, so far): what was not taken back yet comes out of the wallet, as much
     * as is left in it (the admin's Refund checks the balance first; a refund made at the provider may find it spent).
     * Returns what could not be taken back.
     */
    async takeBackTopUp(transaction: TransactionRecord, amountRefunded: number, now: Date, trx: Db): Promise<number> {
      await repo.lockUser(transaction.userId, trx);
      const taken = -(await repo.creditsOfTransaction(transaction.id, trx))
        .filter((row) => row.kind === 'refund' && row.note === TOP_UP_REFUNDED_NOTE)
        .reduce((sum, row) => sum + row.amount, 0);
      const due = amountRefunded - taken;
      if (due <= 0) return 0;
      const amount = Math.min(due, Math.max(0, await available(transaction.userId, transaction.currency, now, trx)));
      if (amount > 0) {
        await move(
          {
            userId: transaction.userId,
            referralId: null,
            transactionId: transaction.id,
            kind: 'refund',
            amount: -amount,
            currency: transaction.currency,
            availableAt: now,
            note: TOP_UP_REFUNDED_NOTE,
          },
          now,
          trx,
        );
      }
      return due - amount;
    },

    /** A refund paid into the wallet instead of back to the payment's provider (Crypto Pay cannot send one). */
    async refundInto(transaction: TransactionRecord, amount: number, memo: string | null, now: Date, trx: Db, actor: WalletActor | null): Promise<void> {
      await repo.lockUser(transaction.userId, trx);
      await move(
        {
          userId: transaction.userId,
          referralId: null,
          transactionId: transaction.id,
          kind: 'refund',
          amount,
          currency: transaction.currency,
          availableAt: now,
          note: REFUND_NOTE,
          memo,
        },
        now,
        trx,
        actor,
      );
    },

    /** The admin puts money in or takes it out, with why; taking out more than is there is refused (409). */
    async adjust(userId: string, change: { amount: number; currency: string; memo: string }, actor: WalletActor, now: Date, trx: Db): Promise<void> {
      await repo.lockUser(userId, trx);
      if (change.amount < 0 && (await available(userId, change.currency, now, trx)) + change.amount < 0) {
        throw new AppError(409, 'insufficient_balance', WALLET_MESSAGES.adjustmentOverdraws);
      }
      await move(
        {
          userId,
          referralId: null,
          transactionId: null,
          kind: 'adjustment',
          amount: change.amount,
          currency: change.currency,
          availableAt: now,
          memo: change.memo,
        },
        now,
        trx,
        actor,
      );
    },
  };
}

export type WalletLedger = ReturnType<typeof createWalletLedger>;
