import type { Knex } from 'knex';

/**
 * Referrals (issue 29). Each customer's link code (`referral_links`, made on first use); who brought whom
 * (`referrals`, one per referred customer, with the programme's terms as they were at sign-up, so a later change
 * of the terms never changes what an existing referral earns); and the referrer's credit as a ledger
 * (`referral_credits`, one row per movement, balance = sum). A row's `available_at` is when it counts as
 * available: an earned reward after the refund window, its cancellation at the same moment (so it nets out of
 * the pending credit), a spending at once. The card fingerprint of a payment (Stripe's, from its charge) is kept
 * on its transaction, to see a referrer and the customer they referred paying with one card.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('transactions', (t) => {
    t.string('card_fingerprint', 64).nullable();
  });

  await knex.schema.createTable('referral_links', (t) => {
    t.string('user_id', 36).primary().references('id').inTable('user_profiles').onDelete('CASCADE');
    t.string('code', 16).notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('referrals', (t) => {
    t.string('id', 36).primary();
    t.string('referrer_id', 36).notNullable().references('id').inTable('user_profiles').onDelete('CASCADE');
    t.string('referred_id', 36).notNullable().unique().references('id').inTable('user_profiles').onDelete('CASCADE');
    t.string('code', 16).notNullable();
    /** active | held | released | void: held while a check found the two customers related, until an admin decides. */
    t.string('status', 16).notNullable();
    /** same_card | same_device | same_address (the first check that found it). */
    t.string('hold_reason', 32);
    /** The programme's terms at sign-up (shared/referrals.ts ReferralTerms). */
    t.text('terms').notNullable();
    t.string('signup_ip', 64);
    /** The referred customer's first payment: the percentage reward runs for its months from here. */
    t.timestamp('first_paid_at', { useTz: true });
    t.string('decided_by', 36);
    t.timestamp('decided_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['referrer_id', 'created_at']);
    t.index(['status', 'created_at']);
    // The overview counts the sign-ups and first payments of a range.
    t.index(['created_at']);
    t.index(['first_paid_at']);
  });

  await knex.schema.createTable('referral_credits', (t) => {
    /** The ledger's sequence: movements in the order they were written (several can share a moment). */
    t.increments('id').primary();
    t.string('user_id', 36).notNullable().references('id').inTable('user_profiles').onDelete('CASCADE');
    t.string('referral_id', 36).references('id').inTable('referrals').onDelete('SET NULL');
    /** The payment it was earned on or cancelled with, or the purchase it was spent on. */
    t.string('transaction_id', 36);
    /** earned | cancelled | reinstated | spent | restored */
    t.string('kind', 16).notNullable();
    /** Minor units, signed: what this movement adds to the balance. */
    t.integer('amount').notNullable();
    t.string('currency', 3).notNullable();
    t.timestamp('available_at', { useTz: true }).notNullable();
    t.string('note', 64);
    /** A move of credit to the payment provider (the customer's balance there): the provider's reference once it took it. */
    t.string('provider_ref', 64);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['user_id', 'available_at']);
    t.index(['transaction_id']);
    t.index(['referral_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('referral_credits');
  await knex.schema.dropTableIfExists('referrals');
  await knex.schema.dropTableIfExists('referral_links');
  await knex.schema.alterTable('transactions', (t) => {
    t.dropColumn('card_fingerprint');
  });
}
