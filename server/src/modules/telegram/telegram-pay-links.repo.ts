import { PAY_LINK_ACTIONS, type PayLinkAction } from '../../../../shared/telegram-auth.js';
import type { Db } from '../../db/knex.js';

/** What a payment link opens the checkout for: a plan to buy, or one of the customer's accounts to renew (or, `action`, its add-ons or a change of plan). */
export type PayLinkTarget = { planId: string } | { accountId: string; action?: PayLinkAction };

const actionOf = (value: unknown): PayLinkAction | undefined => PAY_LINK_ACTIONS.find((action) => action === value);

/** The one-time links from the bot that sign a customer in on the site for a checkout, kept by the token's hash. */
export function createTelegramPayLinksRepo(db: Db) {
  return {
    async insert(link: { tokenHash: string; userId: string; target: PayLinkTarget; expiresAt: Date; now: Date }): Promise<void> {
      await db('telegram_pay_links').insert({
        token_hash: link.tokenHash,
        user_id: link.userId,
        plan_id: 'planId' in link.target ? link.target.planId : null,
        account_id: 'accountId' in link.target ? link.target.accountId : null,
        action: 'accountId' in link.target ? (link.target.action ?? null) : null,
        expires_at: link.expiresAt,
        created_at: link.now,
      });
    },

    /**
     * Uses the link once: its customer and target, or undefined when it is unknown, used or expired (one UPDATE, so
     * two uses at once cannot both win).
     */
    async redeem(tokenHash: string, now: Date): Promise<{ userId: string; target: PayLinkTarget } | undefined> {
      const rows: { user_id: string; plan_id: string | null; account_id: string | null; action: string | null }[] = await db('telegram_pay_links')
        .where({ token_hash: tokenHash })
        .whereNull('used_at')
        .where('expires_at', '>', now)
        .update({ used_at: now })
        .returning(['user_id', 'plan_id', 'account_id', 'action']);
      const row = rows[0];
      const action = actionOf(row?.action);
      if (row?.account_id) return { userId: row.user_id, target: { accountId: row.account_id, ...(action ? { action } : {}) } };
      if (row?.plan_id) return { userId: row.user_id, target: { planId: row.plan_id } };
      return undefined;
    },
  };
}

export type TelegramPayLinksRepo = ReturnType<typeof createTelegramPayLinksRepo>;
