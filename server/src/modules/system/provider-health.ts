import type { ProviderHealth } from '../../../../shared/accounts.js';
import { withTimeout } from '../../lib/with-timeout.js';
import type { PaymentDrivers, RevenueReport } from '../billing/index.js';

/**
 * Each payment provider with keys, as the System tab shows it: whether customers are offered it, whether it answers
 * its keys now (one cheap read, in parallel, each within `timeoutMs`), and when it last took a payment.
 */
export function createProviderHealth(deps: {
  drivers: Pick<PaymentDrivers, 'accounts'>;
  report: Pick<RevenueReport, 'lastPaidByProvider'>;
  offered: () => Promise<readonly string[]>;
  timeoutMs: number;
}) {
  return {
    async check(): Promise<ProviderHealth[]> {
      const [offered, lastPaid] = await Promise.all([deps.offered(), deps.report.lastPaidByProvider()]);
      const checked = await Promise.all(
        deps.drivers.accounts.methods().map(async (method): Promise<ProviderHealth | null> => {
          const driver = await deps.drivers.accounts.forAccount(method, null);
          if (!driver) return null;
          const started = Date.now();
          const lastPaidAt = lastPaid.get(deps.drivers.accounts.providerOf(method))?.toISOString() ?? null;
          try {
            await withTimeout(driver.ping(), deps.timeoutMs);
            return { method, offered: offered.includes(method), reachable: true, latencyMs: Date.now() - started, error: null, lastPaidAt };
          } catch (err) {
            return {
              method,
              offered: offered.includes(method),
              reachable: false,
              latencyMs: null,
              error: err instanceof Error ? err.message : String(err),
              lastPaidAt,
            };
          }
        }),
      );
      return checked.filter((health): health is ProviderHealth => health !== null);
    },
  };
}

export type ProviderHealthCheck = ReturnType<typeof createProviderHealth>;
