import type { Knex } from 'knex';

/**
 * What the pricing page needs from a plan, so that the prices it shows are the plans' own: a tier
 * name (plans that share it are one card with a period toggle), feature lines, a 'Most Popular'
 * flag, a display order, and whether the plan is listed on the public pages. Plans that exist
 * already stay listed, except a trial (by its metadata or the trial-plan setting).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => {
    t.string('tier', 40);
    t.jsonb('features').notNullable().defaultTo('[]');
    t.boolean('most_popular').notNullable().defaultTo(false);
    t.integer('sort_order').notNullable().defaultTo(0);
    t.boolean('is_public').notNullable().defaultTo(true);
  });
  const trialIds = await trialPlanIds(knex);
  if (trialIds.length > 0) await knex('plans').whereIn('id', trialIds).update({ is_public: false });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('plans', (t) => {
    t.dropColumn('is_public');
    t.dropColumn('sort_order');
    t.dropColumn('most_popular');
    t.dropColumn('features');
    t.dropColumn('tier');
  });
}

const parse = (value: unknown): Record<string, unknown> => {
  if (typeof value === 'string') return JSON.parse(value) as Record<string, unknown>;
  return (value ?? {}) as Record<string, unknown>;
};

/** Read in JavaScript: JSON operators differ between SQLite and PostgreSQL. */
async function trialPlanIds(knex: Knex): Promise<string[]> {
  const plans: Array<{ id: string; metadata: unknown }> = await knex('plans').select('id', 'metadata');
  const settings = await knex('settings').select('value').where({ id: 'app_config' }).first();
  const trialPlanId = parse(settings?.value).trial_plan_id;
  return plans.filter((plan) => plan.id === trialPlanId || parse(plan.metadata).is_trial === true).map((plan) => plan.id);
}
