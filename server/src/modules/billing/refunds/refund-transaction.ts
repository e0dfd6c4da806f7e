import { randomUUID } from 'node:crypto';
import type { AdminTransaction } from '../../../../../shared/billing.js';
import { STARS_CURRENCY, type RefundBody } from '../../../../../shared/billing-schemas.js';
import { AppError, notFound, validationFailed } from '../../../errors.js';
import { PermanentJobError } from '../../../jobs/worker.js';
import type { Actor } from '../../users/index.js';
import { providerRefunds } from '../provider-accounts/payment-providers.repo.js';
import { findForAdmin } from './admin-transactions.js';
import type { SendOutcome } from './refund-sender.js';
import { assertTopUpUnspent, canRefund, destinationsOf, formatCents, type RefundsDeps } from './refunds-deps.js';
import { refundCap, type RefundRecord } from './refunds.repo.js';

/**
 * The Refund action (to the provider, into the wallet, or by hand), and the refund of a paid renewal that
 * could not be delivered. Each is recorded under the payment's row lock before anything is sent, once.
 */

/** How long a second click waits for the first one's provider call (a call takes at most ~45 s; most take well under 1). */
const BUSY_WAIT_MS = 20_000;
const BUSY_POLL_MS = 100;

/** An attempt that did not settle, as the admin's answer. */
function failureOf(outcome: Exclude<SendOutcome, { kind: 'settled' }>): AppError {
  switch (outcome.kind) {
    case 'refused':
      return new AppError(502, 'payment_provider_error', `The payment provider did not refund it: ${outcome.message}`);
    case 'busy':
      return new AppError(409, 'refund_in_progress', 'This refund is being sent to the payment provider right now. Look again in a moment.');
    case 'unanswered':
      return new AppError(
        502,
        'refund_unconfirmed',
        `The payment provider did not answer (${outcome.message}). The refund is recorded and is sent again automatically, never twice: Payments shows when it is confirmed.`,
      );
  }
}

/** Waits a little for the attempt another request is making (it holds the lease) to settle the refund. */
async function settledMeanwhile(deps: RefundsDeps, refundId: string): Promise<SendOutcome> {
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
 * waiting for the provider's answer is the one a repeated request (the same request id, or none) sends again;
 * another request id, or another amount, meanwhile is refused (409 `refund_in_progress`).
 */
async function recordAdminRefund(deps: RefundsDeps, actor: Actor, id: string, body: RefundBody): Promise<RefundRecord> {
  const { billing } = deps;
  const key = body.requestId ? `admin:${id}:${body.requestId}` : null;
  return deps.db.transaction(async (trx) => {
    const transaction = await billing.findTransactionForUpdate(id, trx);
    if (!transaction) throw notFound('Transaction not found');
    const same = key ? await deps.refunds.findByKey(key, trx) : undefined;
    if (same) return same;
    const refunds = await deps.refunds.listForTransaction(id, trx);
    const open = refunds.find((refund) => refund.status === 'requested');
    if (open) {
      // Another request (another admin, another dialog) at the same moment: its refund is not this one, and
      // joining it would tell this admin a refund was made for them. They are told, and nothing is made.
      if (key && open.idempotencyKey !== key) {
        throw new AppError(
          409,
          'refund_in_progress',
          `Another refund of ${formatCents(open.amount, open.currency)} of this payment, asked for at the same moment, is being sent to the payment provider, so yours was not made. Look at the payment again in a moment, and refund again if more is to go back.`,
        );
      }
      // The same click sent twice without a request id: the refund it already asked for.
      if (body.amount === undefined || body.amount === open.amount) return open;
      throw new AppError(
        409,
        'refund_in_progress',
        `A refund of ${formatCents(open.amount, open.currency)} is still waiting for the payment provider's answer. Refund more once it is confirmed.`,
      );
    }
    const refunded = Math.max(await deps.refunds.countedTotal(id, trx), transaction.amountRefunded);
    if (!canRefund(transaction, refunded)) {
      throw new AppError(
        409,
        'not_refundable',
        transaction.status === 'refunded' || refunded > 0
          ? 'Nothing is left to refund on this payment.'
          : `A ${transaction.status.replace('_', ' ')} transaction cannot be refunded.`,
      );
    }
    const remaining = refundCap(transaction) - refunded;
    const amount = body.amount ?? remaining;
    if (amount > remaining) throw validationFailed({ amount: `At most ${formatCents(remaining, transaction.currency)} can be refunded` });
    // Telegram gives a Stars payment back whole (refundStarPayment takes no amount).
    if (transaction.currency === STARS_CURRENCY && amount !== remaining)
      throw validationFailed({ amount: 'Telegram refunds a payment in Stars in full only: leave the amount out' });
    await assertTopUpUnspent(deps, transaction, amount, trx);
    const refundId = randomUUID();
    await deps.sender.record(
      {
        id: refundId,
        transactionId: id,
        amount,
        currency: transaction.currency,
        status: 'requested',
        source: 'admin',
        idempotencyKey: key ?? `admin:${id}:${refundId}`,
        reason: body.reason,
        note: body.note ?? null,
        actorId: actor.id,
      },
      trx,
    );
    return (await deps.refunds.find(refundId, trx))!;
  });
}

/**
 * A refund no provider makes: into the customer's wallet here, or paid back by hand (the note says how). Recorded,
 * applied to the payment (and the wallet) and audited in one database transaction, under the payment's row: nothing
 * outside the database is asked, so there is no intent to keep. The same request id twice is one refund.
 */
async function refundOutsideProvider(
  deps: RefundsDeps,
  actor: Actor,
  id: string,
  body: RefundBody,
  destination: 'wallet' | 'manual',
  fixedKey?: string,
): Promise<void> {
  const { billing } = deps;
  const key = fixedKey ?? (body.requestId ? `admin:${id}:${body.requestId}` : null);
  await deps.db.transaction(async (trx) => {
    const transaction = await billing.findTransactionForUpdate(id, trx);
    if (!transaction) throw notFound('Transaction not found');
    if (key && (await deps.refunds.findByKey(key, trx))) return;
    if ((await deps.refunds.listForTransaction(id, trx)).some((refund) => refund.status === 'requested')) {
      throw new AppError(
        409,
        'refund_in_progress',
        "A refund of this payment is still waiting for the payment provider's answer. Refund more once it is confirmed.",
      );
    }
    const refunded = Math.max(await deps.refunds.countedTotal(id, trx), transaction.amountRefunded);
    if (!canRefund(transaction, refunded))
      throw new AppError(
        409,
        'not_refundable',
        refunded > 0 ? 'Nothing is left to refund on this payment.' : `A ${transaction.status.replace('_', ' ')} transaction cannot be refunded.`,
      );
    const remaining = refundCap(transaction) - refunded;
    const amount = body.amount ?? remaining;
    if (amount > remaining) throw validationFailed({ amount: `At most ${formatCents(remaining, transaction.currency)} can be refunded` });
    await assertTopUpUnspent(deps, transaction, amount, trx);
    const now = deps.clock();
    const refundId = randomUUID();
    await deps.refunds.insert(
      {
        id: refundId,
        transactionId: id,
        amount,
        currency: transaction.currency,
        status: 'succeeded',
        source: destination,
        idempotencyKey: key ?? `${destination}:${id}:${refundId}`,
        reason: body.reason,
        note: body.note ?? null,
        actorId: actor.id,
      },
      now,
      trx,
    );
    if (destination === 'wallet') await deps.wallet.refundInto(transaction, amount, body.note ?? null, now, trx, actor);
    const total = refunded + amount;
    await deps.reversals.applyRefund(
      { paymentRef: transaction.providerPaymentId!, amountRefunded: total, fullyRefunded: total >= refundCap(transaction), reason: body.note ?? body.reason },
      trx,
    );
    await deps.audit.record(
      {
        actorId: actor.id,
        actorEmail: actor.email,
        action: destination === 'wallet' ? 'payments.refund_to_wallet' : 'payments.refund_by_hand',
        targetType: 'transaction',
        targetId: id,
        details: { ourRefundId: refundId, amount, currency: transaction.currency, reason: body.reason, note: body.note ?? null, userId: transaction.userId },
        ip: actor.ip ?? null,
        now,
      },
      trx,
    );
  });
}

/**
 * A paid renewal whose account no longer exists: nothing can be delivered, so the whole remaining
 * amount goes back, once (the ledger's key is the transaction). Throws while it is not confirmed, so the
 * calling job tries again; a refusal is final (the admin sees it in Payments) and is not logged as done.
 */
export async function refundUndeliverable(deps: RefundsDeps, transactionId: string, why: string): Promise<void> {
  const { billing } = deps;
  const found = await billing.findTransaction(transactionId);
  if (!found || found.status !== 'succeeded' || !found.providerPaymentId) return;
  const transaction = { ...found, providerName: (await billing.findSubscription(found.subscriptionId))?.providerName ?? null };
  const key = `undeliverable:${transaction.id}`;
  // A provider that cannot send money back (Crypto Pay): it goes to the customer's wallet instead.
  if (!providerRefunds(transaction.providerName)) {
    await refundOutsideProvider(deps, { id: null, email: 'system' }, transaction.id, { reason: 'requested_by_customer', note: why }, 'wallet', key);
    return;
  }
  let refund = await deps.refunds.findByKey(key);
  if (!refund) {
    await deps.db.transaction(async (trx) => {
      const locked = await billing.findTransactionForUpdate(transaction.id, trx);
      if (!locked || locked.status !== 'succeeded') return;
      const refunded = Math.max(await deps.refunds.countedTotal(locked.id, trx), locked.amountRefunded);
      if (refunded >= locked.amount) return;
      await deps.sender.record(
        {
          id: randomUUID(),
          transactionId: locked.id,
          amount: locked.amount - refunded,
          currency: locked.currency,
          status: 'requested',
          source: 'undeliverable',
          idempotencyKey: key,
          reason: 'requested_by_customer',
          note: why,
        },
        trx,
      );
    });
    refund = await deps.refunds.findByKey(key);
    if (!refund) return;
  }
  const outcome = await deps.sender.send(refund.id);
  if (outcome.kind === 'settled') return;
  if (outcome.kind === 'refused') throw new PermanentJobError(`The refund of undeliverable renewal ${transactionId} was refused: ${outcome.message}`);
  throw new Error(`The refund of undeliverable renewal ${transactionId} is not confirmed yet (${outcome.kind === 'busy' ? 'being sent' : outcome.message})`);
}

/**
 * Refunds the whole remaining amount, or part of it: recorded first, then sent, then applied with the
 * provider's answer (the provider's webhook, whenever it comes, changes nothing more). A double click
 * or a retried request sends the same refund, never a second one.
 */
export async function refundTransaction(deps: RefundsDeps, actor: Actor, id: string, body: RefundBody): Promise<AdminTransaction> {
  const { billing } = deps;
  const found = await billing.findTransaction(id);
  if (!found) throw notFound('Transaction not found');
  // The provider that took it is its subscription's (the transaction's own row does not name it).
  const transaction = { ...found, providerName: (await billing.findSubscription(found.subscriptionId))?.providerName ?? null };
  const destination = body.destination ?? destinationsOf(transaction)[0]!;
  if (!destinationsOf(transaction).includes(destination))
    throw new AppError(409, 'refund_destination', `This payment's refund cannot go to ${destination === 'wallet' ? 'the wallet' : 'the provider'}.`);
  if (destination !== 'provider') {
    await refundOutsideProvider(deps, actor, id, body, destination);
    return findForAdmin(deps, id);
  }
  if (!(await deps.payments.forTransaction(transaction)))
    throw new AppError(503, 'payment_not_configured', 'The payment provider is not configured, so nothing can be refunded.');
  const refund = await recordAdminRefund(deps, actor, id, body);
  let outcome = await deps.sender.send(refund.id);
  // A double click: the other request is sending this very refund; its answer is this one's too.
  if (outcome.kind === 'busy') outcome = await settledMeanwhile(deps, refund.id);
  if (outcome.kind !== 'settled') throw failureOf(outcome);
  return findForAdmin(deps, id);
}
