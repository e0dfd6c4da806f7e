import { randomUUID } from 'node:crypto';
import type { PlanBody } from '../../../../shared/plans.js';
import type { Db } from '../../db/knex.js';
import { toJson } from '../../db/values.js';
import { createPlansRepo } from './plans.repo.js';
import { SEED_PERIOD_MONTHS, SEED_PERIODS, SEED_TIERS, seedPlanTexts } from './seed-plan-texts.js';

const GB = 1024 ** 3;

/**
 * The plans a fresh install starts with: three tiers by three periods, at the per-month prices of
 * the product spec (the price charged is the monthly figure times the months), with their texts in
 * every language of the site (seed-plan-texts.ts). The operator edits or replaces them in the admin
 * panel; from then on the database, not this list, is the price list.
 */
export const DEFAULT_PLANS: readonly PlanBody[] = SEED_TIERS.flatMap((tier, tierIndex) =>
  SEED_PERIODS.map((period, periodIndex) => {
    const { text, translations } = seedPlanTexts(tier.key, period.key, tier.monthlyGb, tier.prioritySupport);
    const months = SEED_PERIOD_MONTHS[period.key];
    return {
      name: text.name,
      days: period.days,
      dataLimitBytes: tier.monthlyGb * months * GB,
      locations: 'all',
      servers: [],
      price: tier.perMonth[periodIndex]! * months,
      status: 'active' as const,
      isTrial: false,
      tier: text.tier,
      features: text.features,
      mostPopular: tier.mostPopular,
      sortOrder: (tierIndex + 1) * 10 + periodIndex,
      public: true,
      billing: 'recurring' as const,
      // Seed plans stay unlimited: their feature line says so.
      deviceLimit: null,
      // Sold for Stars only when the operator gives a Stars price.
      starsPrice: null,
      translations,
      // One allowance per period, as the feature lines say; no grace after the end.
      trafficReset: 'none' as const,
      trafficCarryOver: false,
      graceDays: 0,
      graceDataBytes: null,
    };
  }),
);

/** The settings row that records that the first-start seed has run (whatever it did). */
export const PLANS_SEEDED_MARKER = 'plans_seeded';

export type SeedOutcome = 'seeded' | 'already_ran' | 'operator_has_plans';

/**
 * Runs once per database, on start-up: the first start writes DEFAULT_PLANS when there are no
 * plans at all. The marker row is claimed by an insert (not a read), so two instances starting
 * together seed once; an operator who later deletes every plan does not get them back.
 */
export async function seedDefaultPlans(db: Db, now: Date): Promise<SeedOutcome> {
  return db.transaction(async (trx) => {
    const claimed = await trx('settings')
      .insert({ id: PLANS_SEEDED_MARKER, value: toJson({ seededAt: now.toISOString() }), updated_at: now })
      .onConflict('id')
      .ignore()
      .returning('id');
    if (claimed.length === 0) return 'already_ran';
    const plans = createPlansRepo(trx);
    if ((await plans.count()) > 0) return 'operator_has_plans';
    for (const plan of DEFAULT_PLANS) await plans.insert(randomUUID(), plan, now);
    return 'seeded';
  });
}
