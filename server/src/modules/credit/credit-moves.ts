import type { Db } from '../../db/knex.js';
import type { AuditRepo } from '../audit/index.js';
import type { NewCredit, WalletLedgerRepo } from './wallet-ledger.repo.js';

/**
 * One movement of a customer's referral credit: its ledger row and its line in the audit log
 * (`referral.credit_<kind>`), in the caller's database transaction.
 */
export async function recordCreditMove(deps: { repo: WalletLedgerRepo; audit: AuditRepo }, credit: NewCredit, now: Date, trx: Db): Promise<number> {
  const id = await deps.repo.insertCredit(credit, now, trx);
  await deps.audit.record(
    {
      actorId: null,
      actorEmail: null,
      action: `referral.credit_${credit.kind}`,
      targetType: 'user',
      targetId: credit.userId,
      details: {
        creditId: id,
        referralId: credit.referralId,
        transactionId: credit.transactionId,
        amount: credit.amount,
        currency: credit.currency,
        availableAt: credit.availableAt.toISOString(),
        ...(credit.note ? { note: credit.note } : {}),
      },
      now,
    },
    trx,
  );
  return id;
}
