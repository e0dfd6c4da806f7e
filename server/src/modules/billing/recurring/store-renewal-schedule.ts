import type { StoreCharge, SubscriptionRecord, TransactionRecord } from '../billing.repo.js';
import { DAY_MS } from '../../../../../shared/constants.js';

/** When a plan this server renews is charged (store-renewals.ts), for the job, the dashboard and the e-mails alike. */

/**
 * A renewal is charged before its period ends: the first try 3 days before, and after a decline again 2 days and
 * 1 day before (3 tries over 3 days); if none is paid, the account ends with the period it paid for.
 */
export const STORE_RENEWAL = {
  tries: 3,
  firstTryDaysBefore: 3,
  scanSeconds: 600,
  pendingRecheckSeconds: 900,
  offRecheckSeconds: 3600,
  /** How long a runner that sent a try may still be waiting for its answer (the provider's 15 s timeout and a margin): no other sends it meanwhile. */
  sendLeaseSeconds: 20,
} as const;

/** When try `attempt` (1-based) of the renewal of a period ending at `periodEnd` is due. */
export const tryDueAt = (periodEnd: Date, attempt: number): Date => new Date(periodEnd.getTime() - (STORE_RENEWAL.firstTryDaysBefore - (attempt - 1)) * DAY_MS);

/** The key of a period's renewal transaction (unique: one renewal per period, whoever asks). */
export const renewalKeyOf = (subscriptionId: string, periodEnd: Date): string => `renewal:${subscriptionId}:${periodEnd.toISOString()}`;

export const chargesOf = (transaction: TransactionRecord): StoreCharge[] => transaction.metadata.charges ?? [];

/** When a recurring plan's next period is charged: days before its end when renewed here, else at its end. */
export const chargeDateOf = (subscription: Pick<SubscriptionRecord, 'metadata'>, periodEnd: Date): Date =>
  subscription.metadata.renewed_by === 'store' ? tryDueAt(periodEnd, 1) : periodEnd;
