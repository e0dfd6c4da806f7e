import { argJson, argText, isObject, toInteger } from './args.js';
import { resolveChat, type ResolvedChat } from './chats.js';
import { badRequest, TelegramError, TEXT } from './errors.js';
import { checkSendAllowed } from './flood.js';
import type { FakeTelegramSent } from './handle-types.js';
import type { Params } from './params.js';
import { botUser, type MethodCall, type MethodResult, ok, type StoredMessage, unixTime } from './state.js';

/** Client::get_formatted_text's checks (Client.cpp:11306-11325); the markup itself is not parsed. */
export function checkFormattedText(params: Params, text: string, parseModeArg: string): void {
  if (Buffer.byteLength(text) > 1 << 15) throw badRequest('Text is too long');
  const parseMode = argText(params, parseModeArg).toLowerCase();
  if (text !== '' && !['', 'none', 'markdown', 'markdownv2', 'html'].includes(parseMode)) throw badRequest('Unsupported parse_mode');
}

/** The reply_markup argument (Client.cpp:9697-9709); only an inline keyboard shows in the Message. */
export function readReplyMarkup(params: Params): unknown {
  const markup = argJson(params, 'reply_markup', () => badRequest("Can't parse reply keyboard markup JSON object"));
  if (markup !== undefined && !isObject(markup)) throw badRequest("Can't parse reply keyboard markup JSON object");
  return markup;
}

export const inlineMarkup = (markup: unknown) => (isObject(markup) && Array.isArray(markup.inline_keyboard) ? { reply_markup: markup } : {});

export function storeMessage(call: MethodCall, chat: ResolvedChat, kind: StoredMessage['kind'], content: Record<string, unknown>): Record<string, unknown> {
  const messageId = (call.bot.lastMessageId.get(chat.key) ?? 0) + 1;
  call.bot.lastMessageId.set(chat.key, messageId);
  const message = { message_id: messageId, from: botUser(call.bot), chat: chat.object, date: unixTime(call.now), ...content };
  call.bot.messages.set(`${chat.key}:${messageId}`, { kind, message });
  return message;
}

export function recordSent(
  call: MethodCall,
  chatId: number | string,
  fields: { text?: string; caption?: string; replyMarkup?: unknown; messageId?: number },
): void {
  const entry: FakeTelegramSent = { token: call.bot.token, method: call.method, chatId, params: call.recorded };
  if (fields.text !== undefined) entry.text = fields.text;
  if (fields.caption !== undefined) entry.caption = fields.caption;
  if (fields.replyMarkup !== undefined) entry.replyMarkup = fields.replyMarkup;
  if (fields.messageId !== undefined) entry.messageId = fields.messageId;
  call.world.sent.push(entry);
}

/** The message text (Client.cpp:11387-11403): required, then Telegram's 4096-character limit (UTF-16 units, as Telegram counts). */
function readMessageText(params: Params): string {
  const text = argText(params, 'text');
  if (text === '') throw badRequest('Message text is empty'); // Client.cpp:11401
  checkFormattedText(params, text, 'parse_mode');
  return text;
}

/** Telegram's limits, answered by its servers through TDLib (MESSAGE_TOO_LONG; the words are the Bot API's known answers). */
const MAX_TEXT = 4096;
export const MAX_CAPTION = 1024;

export function entitiesOf(params: Params, name: string): Record<string, unknown> {
  let entities: unknown;
  try {
    entities = argJson(params, name, () => new TelegramError(400, 'unreadable'));
  } catch {
    return {}; // unreadable entities are ignored, not refused (Client::get_input_entities, Client.cpp:11170-11180)
  }
  return Array.isArray(entities) ? { [name]: entities } : {};
}

export function sendMessage(call: MethodCall): MethodResult {
  const text = readMessageText(call.params);
  const replyMarkup = readReplyMarkup(call.params);
  const chat = resolveChat(call.world, call.params);
  if (text.length > MAX_TEXT) throw badRequest('message is too long');
  checkSendAllowed(call, chat);
  const message = storeMessage(call, chat, 'text', { text, ...entitiesOf(call.params, 'entities'), ...inlineMarkup(replyMarkup) });
  recordSent(call, chat.id, { text, replyMarkup, messageId: message.message_id as number });
  return ok(message);
}

export function editMessageText(call: MethodCall): MethodResult {
  const { params, bot } = call;
  const text = readMessageText(params);
  const replyMarkup = readReplyMarkup(params);
  const messageId = Math.max(toInteger(argText(params, 'message_id')), 0); // Client::get_message_id
  if (argText(params, 'chat_id') === '' && messageId === 0) {
    const inlineMessageId = argText(params, 'inline_message_id');
    if (inlineMessageId === '') throw badRequest('Message identifier is not specified'); // Client.cpp:12446
    recordSent(call, inlineMessageId, { text, replyMarkup });
    return ok(true);
  }
  const chat = resolveChat(call.world, params);
  const stored = bot.messages.get(`${chat.key}:${messageId}`);
  if (!stored) throw badRequest('message to edit not found'); // TDLib's answer for a message the bot cannot find
  if (stored.kind !== 'text') throw badRequest('there is no text in the message to edit'); // TDLib, as the Bot API words it
  const newMarkup = inlineMarkup(replyMarkup);
  if (stored.message.text === text && JSON.stringify(stored.message.reply_markup) === JSON.stringify(newMarkup.reply_markup))
    throw badRequest(TEXT.notModified);
  const { reply_markup: _old, ...rest } = stored.message;
  stored.message = { ...rest, text, ...entitiesOf(params, 'entities'), ...newMarkup, edit_date: unixTime(call.now) };
  recordSent(call, chat.id, { text, replyMarkup, messageId });
  return ok(stored.message);
}
