import { randomUUID } from 'node:crypto';
import type { AdminTransaction, RefundDestination } from '../../../../../shared/billing.js';
import { formatMoney } from '../../../../../shared/money.js';
import type { PaymentMethod, RefundBody } from '../../../../../shared/billing-schemas.js';
import type { Db } from '../../../db/knex.js';
import { AppError, notFound, validationFailed } from '../../../errors.js';
import { PermanentJobError } from '../../../jobs/worker.js';
import type { Actor } from '../../users/users.service.js';
import type { BillingRepo, TransactionRecord } from '../billing.repo.js';
import { toTransaction } from '../billing.service.js';
import type { PaymentDrivers } from '../provider-accounts/payment-drivers.js';
import type { RefundSender, SendOutcome } from './refund-sender.js';
import { refundCap, type RefundRecord, type RefundsRepo } from './refunds.repo.js';
import { transactionNoteOf } from '../transaction-notes.js';
import { providerOfMethod, providerRefunds } from '../provider-accounts/payment-providers.repo.js';
import type { PaymentReversals } from './payment-reversals.js';
import type { WalletLedger } from '../../wallet/wallet-ledger.js';
import type { AuditRepo } from '../../audit/audit.repo.js';
import type { Clock } from '../../../lib/clock.js';

const REFUNDABLE = new Set(['succeeded', 'needs_review']);
/** How long a second click waits for the first one's provider call (a call takes at most ~45 s; most take well under 1). */
const BUSY_WAIT_MS = 20_000;
const BUSY_POLL_MS = 100;

const formatCents = (minor: number, currency: string) => formatMoney(minor, currency, 'en-US', 'symbol');


/** Paid, or fully refunded by a refund that failed later: something is left to give back. */
const canRefund = (record: TransactionRecord, refunded: number) =>
  (REFUNDABLE.has(record.status) || record.status === 'refunded') && record.providerPaymentId !== null && refunded < refundCap(record);

/** Where a payment's refund can go, the default first: a provider that cannot send money back (Crypto Pay) leaves the wallet and by hand. */
const destinationsOf = (record: Pick<TransactionRecord, 'providerName' | 'metadata'>): RefundDestination[] => {
  // A top-up's money is in the wallet already: giving it back takes it out of there, to the provider or by hand.
  const wallet: RefundDestination[] = record.metadata.kind === 'top_up' ? [] : ['wallet'];
  return providerRefunds(record.providerName) ? ['provider', ...wallet, 'manual'] : [...wallet, 'manual'];
};

/** The ledger's word on a payment's refunds, for the admin: one not confirmed yet, one refused, one failed after it was made. */
function refundNoteOf(record: TransactionRecord, refunds: RefundRecord[]): string | null {
  const open = refunds.find((refund) => refund.status === 'requested');
  if (open) return `Refund of ${formatCents(open.amount, open.currency)} not confirmed by the provider yet: it is sent again automatically, never twice`;
  // A failure matters until refunds made since give back all there is to give back.
  const counted = refunds.filter((refund) => refund.status !== 'failed').reduce((sum, refund) => sum + refund.amount, 0);
  const failed = counted < refundCap(record) ? refunds.filter((refund) => refund.status === 'failed').at(-1) : undefined;
  if (!failed) return null;
  return failed.providerRefundId
    ? `Refund of ${formatCents(failed.amount, failed.currency)} failed at the provider${failed.error ? ` (${failed.error})` : ''}: the customer was not repaid; the account stays as the refund left it. Refund again to retry`
    : `Refund of ${formatCents(failed.amount, failed.currency)} refused by the provider${failed.error ? `: ${failed.error}` : ''}`;
}

function noteOf(record: TransactionRecord, refunds: RefundRecord[]): string | null {
  return refundNoteOf(record, refunds) ?? transactionNoteOf(record);
}

const toAdminTransaction = (record: TransactionRecord & { userEmail: string }, refunds: RefundRecord[]): AdminTransaction => {
  const counted = refunds.filter((refund) => refund.status !== 'failed').reduce((sum, refund) => sum + refund.amount, 0);
  return {
    ...toTransaction(record),
    userId: record.userId,
    userEmail: record.userEmail,
    refundable: canRefund(record, Math.max(counted, record.amountRefunded)) && !refunds.some((refund) => refund.status === 'requested'),
    refundDestinations: destinationsOf(record),
    note: noteOf(record, refunds),
    refundClaimUrl: record.metadata.refund_claim_url ?? null,
  };
};

/** An attempt that did not settle, as the admin's answer. */
function failureOf(outcome: Exclude<SendOutcome, { kind: 'settled' }>): AppError {
  switch (outcome.kind) {
    case 'refused':
      return new AppError(502, 'payment_provider_error', `The payment provider did not refund it: ${outcome.message}`);
    case 'busy':
      return new AppError(409, 'refund_in_progress', 'This refund is being sent to the payment provider right now. Look again in a moment.');
    case 'unanswered':
      return new AppError(502, 'refund_unconfirmed', `The payment provider did not answer (${outcome.message}). The refund is recorded and is sent again automatically, never twice: Payments shows when it is confirmed.`);
  }
}

/** The admin's view of payments, and the Refund action. */
export function createRefundsService(deps: {
  db: Db; billing: BillingRepo; refunds: RefundsRepo; sender: RefundSender; payments: PaymentDrivers;
  reversals: Pick<PaymentReversals, 'applyRefund'>; wallet: Pick<WalletLedger, 'refundInto' | 'available'>; audit: AuditRepo; clock: Clock;
}) {
  const { billing } = deps;

  /** `method`: how they were paid (its provider's, or `wallet` for orders no provider took). */
  async function listTransactions(filter: Omit<Parameters<BillingRepo['listTransactionsForAdmin']>[0], 'providerName'> & { method?: PaymentMethod }): Promise<AdminTransaction[]> {
    const { method, ...rest } = filter;
    const providerName = method === undefined ? undefined : method === 'wallet' ? null : providerOfMethod(method);
    const records = await billing.listTransactionsForAdmin({ ...rest, ...(providerName !== undefined ? { providerName } : {}) });
    const refunds = await deps.refunds.listForTransactions(records.map((record) => record.id));
    return records.map((record) => toAdminTransaction(record, refunds.filter((refund) => refund.transactionId === record.id)));
  }

  async function findForAdmin(id: string): Promise<AdminTransaction> {
    const [found] = await listTransactions({ limit: 1, id });
    if (!found) throw notFound('Transaction not found');
    return found;
  }

  /** Waits a little for the attempt another request is making (it holds the lease) to settle the refund. */
  async function settledMeanwhile(refundId: string): Promise<SendOutcome> {
    for (let waited = 0; waited < BUSY_WAIT_MS; waited += BUSY_POLL_MS) {
      await new Promise((resolve) => setTimeout(resolve, BUSY_POLL_MS));
      const refund = await deps.refunds.find(refundId);
      if (refund?.status === 'failed') return { kind: 'refused', refund, message: refund.error ?? 'The refund failed' };
      if (refund && refund.status !== 'requested') return { kind: 'settled', refund };
      if (refund && !refund.leaseUntil) return { kind: 'unanswered', message: refund.error ?? 'no answer' };
    }
    return { kind: 'busy' };
  }

  /**
   * Records the refund (or finds the one already asked for) under the payment's row lock: a refund still
   * waiting for the provider's answer is the one a repeated request sends again; another amount meanwhile is refused.
   */
  async function recordAdminRefund(actor: Actor, id: string, body: RefundBody): Promise<RefundRecord> {
    const key = body.requestId ? `admin:${id}:${body.requestId}` : null;
    return deps.db.transaction(async (trx) => {
      const transaction = await billing.findTransactionForUpdate(id, trx);
      if (!transaction) throw notFound('Transaction not found');
      const same = key ? await deps.refunds.findByKey(key, trx) : undefined;
      if (same) return same;
      const refunds = await deps.refunds.listForTransaction(id, trx);
      const open = refunds.find((refund) => refund.status === 'requested');
      if (open) {
        if (body.amount === undefined || body.amount === open.amount) return open;
        throw new AppError(409, 'refund_in_progress', `A refund of ${formatCents(open.amount, open.currency)} is still waiting for the payment provider's answer. Refund more once it is confirmed.`);
      }
      const refunded = Math.max(await deps.refunds.countedTotal(id, trx), transaction.amountRefunded);
      if (!canRefund(transaction, refunded)) {
        throw new AppError(409, 'not_refundable', transaction.status === 'refunded' || refunded > 0
          ? 'Nothing is left to refund on this payment.'
          : `A ${transaction.status.replace('_', ' ')} transaction cannot be refunded.`);
      }
      const remaining = refundCap(transaction) - refunded;
      const amount = body.amount ?? remaining;
      if (amount > remaining) throw validationFailed({ amount: `At most ${formatCents(remaining, transaction.currency)} can be refunded` });
      await assertTopUpUnspent(transaction, amount, trx);
      const refundId = randomUUID();
      await deps.sender.record({
        id: refundId, transactionId: id, amount, currency: transaction.currency, status: 'requested', source: 'admin',
        idempotencyKey: key ?? `admin:${id}:${refundId}`, reason: body.reason, note: body.note ?? null, actorId: actor.id,
      }, trx);
      return (await deps.refunds.find(refundId, trx))!;
    });
  }

  /** A top-up can be given back only while its money is still in the wallet (what was spent of it bought something). */
  async function assertTopUpUnspent(transaction: TransactionRecord, amount: number, trx: Db): Promise<void> {
    if (transaction.metadata.kind !== 'top_up') return;
    const left = await deps.wallet.available(transaction.userId, transaction.currency, deps.clock(), trx);
    if (amount > left) {
      throw new AppError(409, 'top_up_spent', `Only ${formatCents(Math.max(0, left), transaction.currency)} of this top-up is still in the customer's balance: refund at most that.`);
    }
  }

  /**
   * A refund no provider makes: into the customer's wallet here, or paid back by hand (the note says how). Recorded,
   * applied to the payment (and the wallet) and audited in one database transaction, under the payment's row: nothing
   * outside the database is asked, so there is no intent to keep. The same request id twice is one refund.
   */
  async function refundOutsideProvider(actor: Actor, id: string, body: RefundBody, destination: 'wallet' | 'manual', fixedKey?: string): Promise<void> {
    const key = fixedKey ?? (body.requestId ? `admin:${id}:${body.requestId}` : null);
    await deps.db.transaction(async (trx) => {
      const transaction = await billing.findTransactionForUpdate(id, trx);
      if (!transaction) throw notFound('Transaction not found');
      if (key && (await deps.refunds.findByKey(key, trx))) return;
      if ((await deps.refunds.listForTransaction(id, trx)).some((refund) => refund.status === 'requested')) {
        throw new AppError(409, 'refund_in_progress', 'A refund of this payment is still waiting for the payment provider\'s answer. Refund more once it is confirmed.');
      }
      const refunded = Math.max(await deps.refunds.countedTotal(id, trx), transaction.amountRefunded);
      if (!canRefund(transaction, refunded)) throw new AppError(409, 'not_refundable', refunded > 0 ? 'Nothing is left to refund on this payment.' : `A ${transaction.status.replace('_', ' ')} transaction cannot be refunded.`);
      const remaining = refundCap(transaction) - refunded;
      const amount = body.amount ?? remaining;
      if (amount > remaining) throw validationFailed({ amount: `At most ${formatCents(remaining, transaction.currency)} can be refunded` });
      await assertTopUpUnspent(transaction, amount, trx);
      const now = deps.clock();
      const refundId = randomUUID();
      await deps.refunds.insert({
        id: refundId, transactionId: id, amount, currency: transaction.currency, status: 'succeeded', source: destination,
        idempotencyKey: key ?? `${destination}:${id}:${refundId}`, reason: body.reason, note: body.note ?? null, actorId: actor.id,
      }, now, trx);
      if (destination === 'wallet') await deps.wallet.refundInto(transaction, amount, body.note ?? null, now, trx, actor);
      const total = refunded + amount;
      await deps.reversals.applyRefund({ paymentRef: transaction.providerPaymentId!, amountRefunded: total, fullyRefunded: total >= refundCap(transaction), reason: body.note ?? body.reason }, trx);
      await deps.audit.record({
        actorId: actor.id, actorEmail: actor.email, action: destination === 'wallet' ? 'payments.refund_to_wallet' : 'payments.refund_by_hand', targetType: 'transaction', targetId: id,
        details: { ourRefundId: refundId, amount, currency: transaction.currency, reason: body.reason, note: body.note ?? null, userId: transaction.userId }, ip: actor.ip ?? null, now,
      }, trx);
    });
  }

  return {
    listTransactions,

    /**
     * A paid renewal whose account no longer exists: nothing can be delivered, so the whole remaining
     * amount goes back, once (the ledger's key is the transaction). Throws while it is not confirmed, so the
     * calling job tries again; a refusal is final (the admin sees it in Payments) and is not logged as done.
     */
    async refundUndeliverable(transactionId: string, why: string): Promise<void> {
      const found = await billing.findTransaction(transactionId);
      if (!found || found.status !== 'succeeded' || !found.providerPaymentId) return;
      const transaction = { ...found, providerName: (await billing.findSubscription(found.subscriptionId))?.providerName ?? null };
      const key = `undeliverable:${transaction.id}`;
      // A provider that cannot send money back (Crypto Pay): it goes to the customer's wallet instead.
      if (!providerRefunds(transaction.providerName)) {
        await refundOutsideProvider({ id: null, email: 'system' }, transaction.id, { reason: 'requested_by_customer', note: why }, 'wallet', key);
        return;
      }
      let refund = await deps.refunds.findByKey(key);
      if (!refund) {
        await deps.db.transaction(async (trx) => {
          const locked = await billing.findTransactionForUpdate(transaction.id, trx);
          if (!locked || locked.status !== 'succeeded') return;
          const refunded = Math.max(await deps.refunds.countedTotal(locked.id, trx), locked.amountRefunded);
          if (refunded >= locked.amount) return;
          await deps.sender.record({
            id: randomUUID(), transactionId: locked.id, amount: locked.amount - refunded, currency: locked.currency, status: 'requested',
            source: 'undeliverable', idempotencyKey: key, reason: 'requested_by_customer', note: why,
          }, trx);
        });
        refund = await deps.refunds.findByKey(key);
        if (!refund) return;
      }
      const outcome = await deps.sender.send(refund.id);
      if (outcome.kind === 'settled') return;
      if (outcome.kind === 'refused') throw new PermanentJobError(`The refund of undeliverable renewal ${transactionId} was refused: ${outcome.message}`);
      throw new Error(`The refund of undeliverable renewal ${transactionId} is not confirmed yet (${outcome.kind === 'busy' ? 'being sent' : outcome.message})`);
    },

    /**
     * Refunds the whole remaining amount, or part of it: recorded first, then sent, then applied with the
     * provider's answer (the provider's webhook, whenever it comes, changes nothing more). A double click
     * or a retried request sends the same refund, never a second one.
     */
    async refundTransaction(actor: Actor, id: string, body: RefundBody): Promise<AdminTransaction> {
      const found = await billing.findTransaction(id);
      if (!found) throw notFound('Transaction not found');
      // The provider that took it is its subscription's (the transaction's own row does not name it).
      const transaction = { ...found, providerName: (await billing.findSubscription(found.subscriptionId))?.providerName ?? null };
      const destination = body.destination ?? destinationsOf(transaction)[0]!;
      if (!destinationsOf(transaction).includes(destination)) throw new AppError(409, 'refund_destination', `This payment's refund cannot go to ${destination === 'wallet' ? 'the wallet' : 'the provider'}.`);
      if (destination !== 'provider') {
        await refundOutsideProvider(actor, id, body, destination);
        return findForAdmin(id);
      }
      if (!(await deps.payments.forTransaction(transaction))) throw new AppError(503, 'payment_not_configured', 'The payment provider is not configured, so nothing can be refunded.');
      const refund = await recordAdminRefund(actor, id, body);
      let outcome = await deps.sender.send(refund.id);
      // A double click: the other request is sending this very refund; its answer is this one's too.
      if (outcome.kind === 'busy') outcome = await settledMeanwhile(refund.id);
      if (outcome.kind !== 'settled') throw failureOf(outcome);
      return findForAdmin(id);
    },
  };
}

export type RefundsService = ReturnType<typeof createRefundsService>;
