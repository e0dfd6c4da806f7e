import { Api, GrammyError, HttpError } from 'grammy';
import { AppError } from '../../errors.js';

/** The Bot API for one token, at TELEGRAM_API_URL (a self-hosted Bot API server, or the fake in tests). */
export type TelegramApiFactory = (token: string) => Api;

/** How long a call to Telegram may take before it is given up (long polls ask for less than this). */
const TIMEOUT_SECONDS = 40;

export function createTelegramApiFactory(apiRoot: string): TelegramApiFactory {
  return (token) => new Api(token, { apiRoot, timeoutSeconds: TIMEOUT_SECONDS });
}

/** Telegram refused the call (GrammyError: its code and description) or could not be reached (HttpError). */
export const isTelegramError = (err: unknown): err is GrammyError | HttpError => err instanceof GrammyError || err instanceof HttpError;

/** The user blocked the bot, deleted their account, or never started a chat with it: nothing can be sent to them. */
export const isUnreachableChat = (err: unknown): boolean =>
  err instanceof GrammyError && (err.error_code === 403 || (err.error_code === 400 && /chat not found/i.test(err.description)));

/** A failed call as the admin's answer: 400 when Telegram refused what was sent (a wrong token), 502 when it did not answer. */
export function telegramFailure(err: unknown, doing: string): AppError {
  if (err instanceof GrammyError) {
    const refused = err.error_code === 401 || err.error_code === 404 ? 'Telegram does not know this bot token' : `Telegram said: ${err.description}`;
    return new AppError(400, 'connection_test_failed', `${doing} failed: ${refused}.`);
  }
  const reason = err instanceof HttpError ? err.message : String(err);
  return new AppError(502, 'connection_test_failed', `${doing} failed: Telegram could not be reached (${reason}).`);
}
