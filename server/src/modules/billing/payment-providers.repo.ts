import type { Db } from '../../db/knex.js';
import { parseJson, toBool } from '../../db/values.js';

export interface CardProviderSummary {
  id: string;
  enabled: boolean;
  publishableKey: string | null;
}

export function createPaymentProvidersRepo(db: Db) {
  return {
    /** The enabled card provider with the highest priority, if any. */
    async findEnabledCardProvider(): Promise<CardProviderSummary | undefined> {
      const row = await db('payment_providers')
        .select('id', 'enabled', 'settings')
        .where({ type: 'card', enabled: true })
        .orderBy('priority', 'desc')
        .first();
      if (!row) return undefined;
      const settings = parseJson<{ publishableKey?: string }>(row.settings, {});
      return { id: row.id, enabled: toBool(row.enabled), publishableKey: settings.publishableKey || null };
    },
  };
}
