import type { ResolvedChat } from './chats.js';
import { TelegramError, TEXT, tooManyRequests } from './errors.js';
import type { BotState, MethodCall, World } from './state.js';

/**
 * Telegram's flood limits for sending (core.telegram.org/bots/faq "My bot is hitting limits"): at most `perSecond`
 * messages a second per bot, about one a second per chat with a short burst. Returns the seconds to wait, or null
 * (and counts the send).
 */
const CHAT_BURST = 3;

function floodWait(world: World, bot: BotState, chat: string, now: number): number | null {
  if (!world.limits) return null;
  bot.sendTimes = bot.sendTimes.filter((at) => now - at < 1000);
  if (bot.sendTimes.length >= world.limits.perSecond) return Math.max(1, Math.ceil((bot.sendTimes[0]! + 1000 - now) / 1000));
  const bucket = bot.chatBuckets.get(chat) ?? { tokens: CHAT_BURST, at: now };
  const tokens = Math.min(CHAT_BURST, bucket.tokens + (now - bucket.at) / 1000);
  if (tokens < 1) return Math.max(1, Math.ceil(1 - tokens));
  bot.chatBuckets.set(chat, { tokens: tokens - 1, at: now });
  bot.sendTimes.push(now);
  return null;
}

export function checkSendAllowed(call: MethodCall, chat: ResolvedChat): void {
  const wait = floodWait(call.world, call.bot, chat.key, call.now);
  if (wait !== null) throw tooManyRequests(wait);
  if (call.world.blocked.has(chat.key)) throw new TelegramError(403, TEXT.blocked);
}
