import { z } from 'zod';
import { LOCALES, type Locale } from './locales.js';

/**
 * Who a broadcast goes to: everyone who started the bot (and did not block it), or the linked customers whose VPN is
 * `active`, has `expired` (accounts, none active), or who took only the `trial` (never paid); optionally only those
 * the bot writes to in one language.
 */
export const BROADCAST_AUDIENCES = ['all', 'active', 'expired', 'trial'] as const;
export type BroadcastAudience = (typeof BROADCAST_AUDIENCES)[number];

export const BROADCAST_STATUSES = ['sending', 'done', 'cancelled'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/** Telegram's limit for a message's text. */
export const BROADCAST_TEXT_MAX = 4096;

/** `POST /api/admin/telegram/broadcasts` (and its `/preview`, which counts without sending). */
export const CreateBroadcastBody = z
  .object({
    text: z.string().trim().min(1, 'Write the message').max(BROADCAST_TEXT_MAX, `At most ${BROADCAST_TEXT_MAX} characters`),
    audience: z.enum(BROADCAST_AUDIENCES, { error: 'Choose who gets it' }),
    locale: z.enum(LOCALES, { error: 'Choose one of the languages' }).nullable().default(null),
  })
  .strict();
export type CreateBroadcastBody = z.input<typeof CreateBroadcastBody>;

/** A broadcast as the admin sees it: what, to whom, and how far it got. */
export interface TelegramBroadcast {
  id: string;
  text: string;
  audience: BroadcastAudience;
  locale: Locale | null;
  status: BroadcastStatus;
  total: number;
  /** Recipients by where they are: not yet sent, sent, refused because they blocked the bot, failed (or interrupted). */
  counts: { pending: number; sent: number; blocked: number; failed: number };
  createdAt: string;
  finishedAt: string | null;
}
