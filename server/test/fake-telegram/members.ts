// ---- bot settings and chat members ----
import { argJson, argText, argUserId, isObject } from './args.js';
import { badRequest, TelegramError } from './errors.js';
import type { Params } from './params.js';
import { type BotState, botUser, chatKey, type MethodCall, type MethodResult, ok } from './state.js';

/** The key of a command list: its scope (BotCommandScope) and language. */
export function commandsKey(params: Params): string {
  const scope = argJson(params, 'scope', () => badRequest("Can't parse BotCommandScope JSON object")); // Client.cpp:10629
  const { type = 'default', chat_id = '', user_id = '' } = isObject(scope) ? scope : {};
  return `${String(type)}:${chatKey(String(chat_id))}:${String(user_id)}|${argText(params, 'language_code')}`;
}

/** Client::get_bot_commands (Client.cpp:10639-10676), then Telegram's documented limits on each command. */
export function setMyCommands(call: MethodCall): MethodResult {
  const commands = argJson(call.params, 'commands', () => badRequest("Can't parse commands JSON object")) ?? [];
  if (!Array.isArray(commands)) throw badRequest('Expected an Array of BotCommand');
  const list = commands.map((command: unknown) => {
    const refuse = (why: string) => badRequest(`Can't parse BotCommand: ${why}`);
    if (!isObject(command)) throw refuse('expected an Object');
    for (const field of ['command', 'description']) {
      if (command[field] === undefined) throw refuse(`Can't find field "${field}"`);
      if (typeof command[field] !== 'string') throw refuse(`Field "${field}" must be of type String`);
    }
    const { command: name, description } = command as { command: string; description: string };
    // 1-32 of a-z, 0-9 and _; a description of 1-256 characters (Bot API documentation, BotCommand); MTProto's error names
    if (!/^[a-z0-9_]{1,32}$/.test(name.replace(/^\//, ''))) throw badRequest('BOT_COMMAND_INVALID');
    if (description.length < 1 || description.length > 256) throw badRequest('BOT_COMMAND_DESCRIPTION_INVALID');
    return { command: name.replace(/^\//, ''), description };
  });
  const key = commandsKey(call.params);
  if (list.length === 0) call.bot.commands.delete(key);
  else call.bot.commands.set(key, list);
  return ok(true);
}

/** Client::get_bot_menu_button (Client.cpp:10681-10721) and JsonBotMenuButton (Client.cpp:5044-5061). */
export function readMenuButton(params: Params): Record<string, unknown> {
  const value = argJson(params, 'menu_button', () => badRequest("Can't parse menu button JSON object"));
  if (value === undefined) return { type: 'default' };
  const refuse = (why: string) => badRequest(`Can't parse menu button: ${why}`);
  if (!isObject(value)) throw refuse('MenuButton must be an Object');
  if (typeof value.type !== 'string') throw refuse('Can\'t find field "type"');
  if (value.type === 'default' || value.type === 'commands') return { type: value.type };
  if (value.type !== 'web_app') throw refuse('MenuButton has unsupported type');
  if (typeof value.text !== 'string') throw refuse('Can\'t find field "text"');
  if (!isObject(value.web_app) || typeof value.web_app.url !== 'string') throw refuse('Can\'t find field "url"');
  return { type: 'web_app', text: value.text, web_app: { url: value.web_app.url } };
}

/** The user a menu button belongs to ('' = the bot's default), Client.cpp:12831-12858. */
export function menuButtonChat(params: Params): string {
  return params.chat_id === undefined || params.chat_id === null ? '' : String(argUserId(params, 'chat_id'));
}

export const CHAT_MEMBER_STATUSES = new Set(['creator', 'administrator', 'member', 'restricted', 'left', 'kicked']);

/** JsonChatMember (Client.cpp:5135-5210), the parts that do not need a real chat. */
function chatMemberObject(bot: BotState, userId: number, status: string): Record<string, unknown> {
  const user = userId === bot.info.id ? botUser(bot) : { id: userId, is_bot: false, first_name: `User ${userId}` };
  const extra: Record<string, Record<string, unknown>> = {
    creator: { is_anonymous: false },
    administrator: { can_be_edited: false, is_anonymous: false, can_manage_chat: true },
    restricted: { is_member: true, until_date: 0 },
    kicked: { until_date: 0 },
  };
  return { user, status, ...(extra[status] ?? {}) };
}

/** Client.cpp:15098-15111: user_id first, then the chat, which the fake knows only from setChatMember. */
export function getChatMember(call: MethodCall): MethodResult {
  const { params, world, bot } = call;
  const userId = argUserId(params, 'user_id');
  const chat = argText(params, 'chat_id');
  if (chat === '') throw new TelegramError(400, 'Bad Request: chat_id is empty');
  const members = world.members.get(chatKey(chat));
  if (!members) throw new TelegramError(400, 'Bad Request: chat not found');
  return ok(chatMemberObject(bot, userId, members.get(userId) ?? 'left'));
}
