import { randomUUID } from 'node:crypto';
import type { PlanBody } from '../../../../shared/plans.js';
import type { Db } from '../../db/knex.js';
import { toJson } from '../../db/values.js';
import { createPlansRepo } from './plans.repo.js';

const GB = 1024 ** 3;

interface SeedTier {
  name: string;
  /** Data included per month, in GB. */
  monthlyGb: number;
  support: string;
  /** Cents per month for 1 month, 1 year and 2 years. */
  perMonth: readonly [month: number, year: number, twoYears: number];
  mostPopular: boolean;
}

/** The tiers of a fresh install's pricing page, in the order it shows them. */
const SEED_TIERS: readonly SeedTier[] = [
  { name: 'Complete', monthlyGb: 1000, support: 'Priority e-mail support', perMonth: [1499, 799, 599], mostPopular: false },
  { name: 'Plus', monthlyGb: 300, support: 'Priority e-mail support', perMonth: [1399, 699, 499], mostPopular: true },
  { name: 'Basic', monthlyGb: 100, support: 'E-mail support', perMonth: [1299, 599, 399], mostPopular: false },
];

const SEED_PERIODS = [
  { months: 1, days: 30, label: '1 Month', data: 'every month' },
  { months: 12, days: 365, label: '1 Year', data: 'for the year' },
  { months: 24, days: 730, label: '2 Years', data: 'for the 2 years' },
] as const;

const formatGb = (gb: number) => `${gb.toLocaleString('en-US')} GB`;

/**
 * The plans a fresh install starts with: three tiers by three periods, at the per-month prices of
 * the product spec (the price charged is the monthly figure times the months). The operator edits
 * or replaces them in the admin panel; from then on the database, not this list, is the price list.
 */
export const DEFAULT_PLANS: readonly PlanBody[] = SEED_TIERS.flatMap((tier, tierIndex) =>
  SEED_PERIODS.map((period, periodIndex) => ({
    name: `${tier.name} ${period.label}`,
    days: period.days,
    dataLimitBytes: tier.monthlyGb * period.months * GB,
    locations: 'all',
    price: tier.perMonth[periodIndex]! * period.months,
    status: 'active' as const,
    isTrial: false,
    tier: tier.name,
    features: [
      `${formatGb(tier.monthlyGb * period.months)} of data ${period.data}`,
      'Servers in every location',
      'Unlimited devices on one subscription link',
      'Open-source apps for Windows, macOS, Linux, Android and iOS',
      tier.support,
    ],
    mostPopular: tier.mostPopular,
    sortOrder: (tierIndex + 1) * 10 + periodIndex,
    public: true,
    billing: 'recurring',
    // Seed plans stay unlimited: their feature line says so.
    deviceLimit: null,
  })),
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
