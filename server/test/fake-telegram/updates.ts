// ---- updates ----
import { argInt, argJson, isObject } from './args.js';
import { TelegramError, TEXT } from './errors.js';
import type { Params } from './params.js';
import { type BotState, chatKey, type LongPoll, type MethodCall, type MethodResult, ok } from './state.js';

/** The update as the bot gets it: update_id first (kept when given), the rest as given. */
export function stampUpdate(bot: BotState, update: Record<string, unknown>): Record<string, unknown> & { update_id: number } {
  const given = update.update_id;
  const updateId = typeof given === 'number' && Number.isSafeInteger(given) ? given : bot.nextUpdateId;
  bot.nextUpdateId = Math.max(bot.nextUpdateId, updateId + 1);
  const { update_id: _ignored, ...rest } = update;
  noteIncomingMessage(bot, rest);
  return { update_id: updateId, ...rest };
}

/** A user's message takes its chat's next message_id, so the bot's own messages come after it. */
function noteIncomingMessage(bot: BotState, update: Record<string, unknown>): void {
  for (const kind of ['message', 'edited_message', 'channel_post', 'business_message']) {
    const message = update[kind];
    if (!isObject(message) || !isObject(message.chat) || typeof message.message_id !== 'number') continue;
    const chat = message.chat.id;
    if (typeof chat !== 'number' && typeof chat !== 'string') continue;
    const key = chatKey(chat);
    bot.lastMessageId.set(key, Math.max(bot.lastMessageId.get(key) ?? 0, message.message_id));
  }
}

/** The callback and pre-checkout queries in an update the bot is given now become answerable. */
export function openQueries(bot: BotState, update: Record<string, unknown>, now: number): void {
  for (const kind of ['callback_query', 'pre_checkout_query'] as const) {
    const query = update[kind];
    if (!isObject(query) || (typeof query.id !== 'string' && typeof query.id !== 'number')) continue;
    if (!bot.queries.has(String(query.id))) bot.queries.set(String(query.id), { kind, sentAt: now, answered: false });
  }
}

/** The names in Client::get_update_type_name's order (Client.cpp), and the default set (Client.h:1456-1459). */
const UPDATE_TYPES = [
  'message',
  'edited_message',
  'channel_post',
  'edited_channel_post',
  'inline_query',
  'chosen_inline_result',
  'callback_query',
  'custom_event',
  'custom_query',
  'shipping_query',
  'pre_checkout_query',
  'poll',
  'poll_answer',
  'my_chat_member',
  'chat_member',
  'chat_join_request',
  'chat_boost',
  'removed_chat_boost',
  'message_reaction',
  'message_reaction_count',
  'business_connection',
  'business_message',
  'edited_business_message',
  'deleted_business_messages',
  'purchased_paid_media',
  'managed_bot',
  'guest_message',
];
const NOT_BY_DEFAULT = new Set(['chat_member', 'message_reaction', 'message_reaction_count']);

/**
 * Client::update_allowed_update_types (Client.cpp:16889-16946): a JSON array of names changes the bot's setting (names
 * it does not know are skipped; none known = the default); anything else leaves it as it was.
 */
export function updateAllowedUpdates(bot: BotState, params: Params): void {
  let value: unknown;
  try {
    value = argJson(params, 'allowed_updates', () => new TelegramError(400, 'unreadable'));
  } catch {
    return; // an unreadable list is ignored, not refused
  }
  if (!Array.isArray(value) || value.some((name) => typeof name !== 'string')) return;
  const names = new Set((value as string[]).map((name) => name.toLowerCase()));
  const chosen = UPDATE_TYPES.filter((name) => names.has(name));
  const isDefault = chosen.length === 0 || (chosen.length === UPDATE_TYPES.length - NOT_BY_DEFAULT.size && chosen.every((name) => !NOT_BY_DEFAULT.has(name)));
  bot.allowedUpdates = isDefault ? null : chosen;
}

/** getUpdates' offset: a positive one confirms every earlier update, a negative one keeps the last -offset (Client.cpp:16322-16366). */
function confirmUpdates(bot: BotState, offset: number): void {
  if (offset < 0) bot.queue = bot.queue.slice(offset);
  else if (offset > 0 && offset <= bot.nextUpdateId) bot.queue = bot.queue.filter((update) => update.update_id >= offset);
}

function handOutUpdates(bot: BotState, limit: number, now: number): unknown[] {
  const updates = bot.queue.slice(0, limit);
  for (const update of updates) openQueries(bot, update, now);
  return updates;
}

/** A previous long poll still waiting is answered 409 (Client.cpp:16225-16235). */
export function abortLongPoll(bot: BotState, description: string): void {
  bot.longPoll?.abort(new TelegramError(409, description));
}

const LONG_POLL_MAX_TIMEOUT = 50; // Client.h:1610

export async function getUpdates(call: MethodCall): Promise<MethodResult> {
  const { bot, params } = call;
  if (bot.webhook) throw new TelegramError(409, TEXT.webhookActive);
  const offset = argInt(params, 'offset', 0);
  const limit = argInt(params, 'limit', 100, 1, 100);
  const timeout = argInt(params, 'timeout', 0, 0, LONG_POLL_MAX_TIMEOUT);
  updateAllowedUpdates(bot, params);
  confirmUpdates(bot, offset);
  if (bot.queue.length > 0 || timeout === 0) return ok(handOutUpdates(bot, limit, call.now));
  abortLongPoll(bot, TEXT.terminatedByGetUpdates);
  return waitForUpdates(call, limit, timeout);
}

/** Waits up to `timeout` seconds for an update; ends early when the client goes away or another request takes over. */
function waitForUpdates(call: MethodCall, limit: number, timeout: number): Promise<MethodResult> {
  const { bot, socket } = call;
  return new Promise((resolve, reject) => {
    const finish = (outcome: 'updates' | TelegramError | null): void => {
      clearTimeout(timer);
      socket?.off('close', onClientGone);
      if (bot.longPoll === poll) bot.longPoll = null;
      if (outcome instanceof TelegramError) reject(outcome);
      else resolve(ok(outcome === 'updates' ? handOutUpdates(bot, limit, Date.now()) : []));
    };
    const onClientGone = (): void => finish(null);
    const timer = setTimeout(() => finish('updates'), timeout * 1000);
    const poll: LongPoll = { wake: () => finish('updates'), abort: (error) => finish(error) };
    bot.longPoll = poll;
    socket?.once('close', onClientGone);
  });
}
