import type { FastifyBaseLogger } from 'fastify';
import type { ProviderMethod } from '../../../../../shared/billing-schemas.js';
import type { JobHandler } from '../../../jobs/worker.js';
import { addSeconds, type Clock } from '../../../lib/clock.js';
import type { BillingRepo } from '../billing.repo.js';
import type { PaymentDrivers } from '../provider-accounts/payment-drivers.js';
import type { PaymentConfirmation } from './payment-confirmation.js';

export const POLL_OPEN_CHECKOUTS = 'poll_open_checkouts';
/**
 * Every 30 s: a provider that sends no webhook when an invoice expires, and whose paid webhook may be lost (Crypto
 * Pay), has its open checkouts read in one call per account, so a payment is found within a minute without one.
 */
export const POLL = { intervalSeconds: 30, maxPerPass: 2000 } as const;

/**
 * Reads the open checkouts of each provider whose driver can read many at once (`readCheckouts`), grouped by the
 * account that took them, and applies every one that is no longer open, exactly as its webhook would have.
 */
export function createPollOpenCheckoutsHandler(deps: {
  billing: BillingRepo;
  payments: PaymentDrivers;
  confirmation: PaymentConfirmation;
  clock: Clock;
  log: FastifyBaseLogger;
}): JobHandler {
  async function pollMethod(method: ProviderMethod): Promise<{ read: number; applied: number }> {
    const inForce = await deps.payments.accounts.forAccount(method, null);
    if (!inForce?.readCheckouts) return { read: 0, applied: 0 };
    const open = await deps.billing.listOpenCheckouts(deps.payments.accounts.providerOf(method), POLL.maxPerPass);
    const byAccount = new Map<string | null, typeof open>();
    for (const row of open) byAccount.set(row.providerAccountId, [...(byAccount.get(row.providerAccountId) ?? []), row]);
    let applied = 0;
    for (const [accountId, rows] of byAccount) {
      const driver = await deps.payments.accounts.forAccount(method, accountId);
      if (!driver?.readCheckouts) continue;
      for (const state of await driver.readCheckouts(rows.map((row) => row.checkoutId))) {
        if (state.outcome === 'open') continue;
        if ((await deps.confirmation.apply(state)) !== null) applied += 1;
      }
    }
    return { read: open.length, applied };
  }

  return async () => {
    const notes: string[] = [];
    for (const method of deps.payments.accounts.methods()) {
      try {
        const { read, applied } = await pollMethod(method);
        if (read > 0) notes.push(`${method}: ${read} open, ${applied} closed`);
      } catch (err) {
        deps.log.warn({ err, method }, 'poll: could not read open checkouts; the next pass tries again');
        notes.push(`${method}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return { runAgainAt: addSeconds(deps.clock(), POLL.intervalSeconds), note: notes.join('; ') || null };
  };
}
