// ---- chats and messages ----
import { argText, toInteger } from './args.js';
import { TelegramError } from './errors.js';
import type { Params } from './params.js';
import { chatKey, type World } from './state.js';

export interface ResolvedChat {
  key: string;
  id: number;
  object: Record<string, unknown>;
}

/** Client::check_chat (Client.cpp:8197-8226) as the fake knows chats: any user or group id, an @username a test declared. */
export function resolveChat(world: World, params: Params): ResolvedChat {
  const text = argText(params, 'chat_id');
  if (text === '') throw new TelegramError(400, 'Bad Request: chat_id is empty'); // Client.cpp:8201
  if (text.startsWith('@')) {
    const key = chatKey(text);
    if (!world.members.has(key)) throw new TelegramError(400, 'Bad Request: chat not found');
    const id = world.channelIds.get(key) ?? -1_001_000_000_000 - world.channelIds.size;
    world.channelIds.set(key, id);
    return { key, id, object: { id, title: text.slice(1), username: text.slice(1), type: 'channel' } };
  }
  const id = toInteger(text);
  // getChat(0) fails, and fail_query_with_error words it with the default "chat not found" (Client.cpp:6571)
  if (id === 0) throw new TelegramError(400, 'Bad Request: chat not found');
  if (id > 0) return { key: String(id), id, object: { id, type: 'private' } };
  return { key: String(id), id, object: { id, title: `Chat ${id}`, type: id < -1_000_000_000_000 ? 'supergroup' : 'group' } };
}
