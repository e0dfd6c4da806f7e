import type { Knex } from 'knex';
import { SEED_PLAN_TEXTS_024 as SEED_PLAN_TEXTS } from './024-seed-plan-texts.js';

/**
 * Plans in the site's other languages (issue 26): `translations` holds each language's name, tier and
 * feature lines (`{ "ru": { "name", "tier", "features" }, … }`), each falling back to English.
 *
 * Backfill: an install seeded before this gets the seed's Russian, Persian and Chinese texts on the seeded
 * plans it still sells as seeded, i.e. whose English name, tier and feature lines are the seed's own and that
 * have no translations yet. A plan the operator renamed or re-described keeps none: a translation of the old
 * English would say something else than the plan does.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => {
    t.text('translations').notNullable().defaultTo('{}');
  });
  await backfillSeededPlans(knex);
}

const parseList = (value: unknown): unknown => (typeof value === 'string' ? JSON.parse(value) : value);

/** Compared in JavaScript: JSON operators differ between SQLite and PostgreSQL. */
async function backfillSeededPlans(knex: Knex): Promise<void> {
  const plans: Array<{ id: string; name: string; tier: string | null; features: unknown; translations: string }> = await knex('plans').select('id', 'name', 'tier', 'features', 'translations');
  for (const plan of plans) {
    const seed = SEED_PLAN_TEXTS.find(({ text }) => text.name === plan.name);
    if (!seed || plan.tier !== seed.text.tier) continue;
    if (JSON.stringify(parseList(plan.features)) !== JSON.stringify(seed.text.features)) continue;
    if (plan.translations && plan.translations !== '{}') continue;
    await knex('plans').where({ id: plan.id }).update({ translations: JSON.stringify(seed.translations) });
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => {
    t.dropColumn('translations');
  });
}
