import type { Db } from '../../db/knex.js';

/** The one-time links that tie a Telegram user to a customer, kept by the token's hash. */
export function createTelegramLinksRepo(db: Db) {
  return {
    async insert(link: { tokenHash: string; userId: string; expiresAt: Date; now: Date }): Promise<void> {
      await db('telegram_link_tokens').insert({ token_hash: link.tokenHash, user_id: link.userId, expires_at: link.expiresAt, created_at: link.now });
    },

    /** Uses the link once: the customer it names, or undefined when it is unknown, used or expired (one UPDATE, so two uses at once cannot both win). */
    async redeem(tokenHash: string, now: Date): Promise<string | undefined> {
      const rows: { user_id: string }[] = await db('telegram_link_tokens')
        .where({ token_hash: tokenHash })
        .whereNull('used_at')
        .where('expires_at', '>', now)
        .update({ used_at: now })
        .returning('user_id');
      return rows[0]?.user_id;
    },
  };
}

export type TelegramLinksRepo = ReturnType<typeof createTelegramLinksRepo>;
