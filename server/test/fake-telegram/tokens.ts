// ---- tokens (ClientManager::send, Client::start_up) ----
import { TelegramError, TEXT } from './errors.js';
import type { BotState, World } from './state.js';

/** What Telegram answers a token it will never accept, or null for a token of the right shape. */
export function tokenProblem(token: string): TelegramError | null {
  // ClientManager.cpp:74-77
  if (token === '' || token.startsWith('0') || token.length > 80 || token.includes('/') || !token.includes(':'))
    return new TelegramError(401, TEXT.invalidToken);
  const idText = token.slice(0, token.indexOf(':'));
  // ClientManager.cpp:78-81: td::to_integer_safe<int64> refuses anything but an optional sign and digits
  if (!/^[+-]?\d+$/.test(idText) || BigInt(idText) > 2n ** 63n - 1n || BigInt(idText) < -(2n ** 63n)) return new TelegramError(421, TEXT.unallowedToken);
  // ClientManager.cpp:83-85
  if (BigInt(idText) <= 0n || BigInt(idText) >= 2n ** 54n) return new TelegramError(401, TEXT.invalidToken);
  return null;
}

/** Client.cpp:7907-7920: the part after ':' must be base64url and at least 24 characters, else logging in fails (401). */
export function tokenSecretIsValid(token: string): boolean {
  const secret = token.slice(token.indexOf(':') + 1);
  return secret.length >= 24 && /^[A-Za-z0-9_-]+={0,2}$/.test(secret);
}

export function authorize(world: World, token: string): BotState {
  const problem = tokenProblem(token);
  if (problem) throw problem;
  const bot = world.bots.get(token);
  if (!bot) throw new TelegramError(401, TEXT.unauthorized);
  return bot;
}
