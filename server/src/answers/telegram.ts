import { z } from 'zod';
import { LOCALES } from '../../../shared/locales.js';
import { BROADCAST_AUDIENCES, BROADCAST_STATUSES, type TelegramBroadcast } from '../../../shared/telegram-broadcasts.js';
import type { TelegramDelivery, TelegramLinkStatus, TelegramLinkUrl, TelegramSettings } from '../../../shared/telegram.js';

/** What the admin's Telegram routes answer (the token never comes back: only whether one is saved). */

const TelegramDeliveryAnswer = z.object({
  mode: z.enum(['webhook', 'polling', 'off']),
  url: z.string().nullable(),
  pendingUpdates: z.number().int().nullable(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
}) satisfies z.ZodType<TelegramDelivery>;

/** `GET/PUT /api/admin/telegram`. */
export const TelegramSettingsAnswer = z.object({
  enabled: z.boolean(),
  botTokenSet: z.boolean(),
  username: z.string().nullable(),
  webhook: TelegramDeliveryAnswer,
  channel: z.string().nullable(),
  adminChatIds: z.array(z.number().int()),
}) satisfies z.ZodType<TelegramSettings>;

/** `POST /api/telegram/webhook`: Telegram reads only the status; `duplicate` when the update was handled before. */
export const TelegramUpdateAnswer = z.object({ ok: z.literal(true), duplicate: z.literal(true).optional() });

/** `GET /api/me/telegram`, and `PATCH /api/me/telegram/preferences`. */
export const TelegramLinkStatusAnswer = z.object({
  bot: z.object({ username: z.string() }).nullable(),
  linked: z.object({ username: z.string().nullable(), firstName: z.string().nullable() }).nullable(),
  preferences: z.object({ noticesByEmail: z.boolean(), codesByTelegram: z.boolean() }).nullable(),
}) satisfies z.ZodType<TelegramLinkStatus>;

/** `POST /api/me/telegram-link`. */
export const TelegramLinkUrlAnswer = z.object({ url: z.string(), expiresAt: z.string() }) satisfies z.ZodType<TelegramLinkUrl>;

/** A broadcast as the admin's routes answer it. */
export const TelegramBroadcastAnswer = z.object({
  id: z.string(),
  text: z.string(),
  audience: z.enum(BROADCAST_AUDIENCES),
  locale: z.enum(LOCALES).nullable(),
  status: z.enum(BROADCAST_STATUSES),
  total: z.number().int(),
  counts: z.object({ pending: z.number().int(), sent: z.number().int(), blocked: z.number().int(), failed: z.number().int() }),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
}) satisfies z.ZodType<TelegramBroadcast>;

/** `POST /api/admin/telegram/broadcasts/preview`. */
export const BroadcastPreviewAnswer = z.object({ recipients: z.number().int() });
