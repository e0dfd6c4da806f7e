import type { ProviderMethod } from '../../shared/billing-schemas.js';
import type { Db } from './db/knex.js';
import type { TransactionRecord } from './modules/billing/billing.repo.js';
import type { TransactionEvent } from './modules/orders/index.js';
import type { PlanRecord } from './modules/plans/plans.repo.js';

/**
 * Every event one module tells the others, with what it carries. They travel on the in-memory bus
 * (lib/event-bus.ts): in this process, listeners awaited in module order. What must reach the other instances
 * goes through the broadcast from the listener (the change signal, the session cache); what must not be lost is
 * written in the database transaction that `trx` names, or queued as a job in it.
 */
export interface DomainEvents {
  /**
   * A payment's status changed, inside the database transaction that changed it: listeners write with `trx`, so
   * what they write (referral credit earned or given back, credit spent) commits or rolls back with the change.
   */
  'transaction.transitioned': { transaction: TransactionRecord; event: TransactionEvent; now: Date; trx: Db };
  /** An account is about to be deleted: what bills it (open renewals, its subscription) is closed first. */
  'account.deleting': { accountId: string };
  /** An account changed on its panel or by an admin: what was cached of its `/sub` answer is dropped. */
  'account.changed': { accountId: string };
  /** A user's role, e-mail or sessions changed: their cached sessions are dropped on every instance. */
  'user.changed': { userId: string };
  /** A user chose another language (their own settings): the card provider's customer is told, for its receipts (queued as a job). */
  'user.language-changed': { userId: string; now: Date };
  /** What the public pages show changed (settings, plans, servers, payment settings): every instance's caches follow. */
  'site.changed': Record<string, never>;
  /** A payment provider's keys are about to be replaced or removed: the account they belong to is remembered first. */
  'payment-keys.changing': { method: ProviderMethod };
  /** Subscription links are now issued on `host` (a spare domain was marked blocked, added or removed): customers are told. */
  'subscription-links.moved': { host: string; now: Date };
  /** A recurring plan was saved: its product and price at the card provider follow it (queued as a job). */
  'recurring-plan.saved': { plan: PlanRecord; now: Date };
}
