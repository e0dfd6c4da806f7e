// ---- the server's words ----

/** Descriptions as the source writes them, with where each comes from. */
export const TEXT = {
  /** ClientManager.cpp:76 and :84 (a token without ':', starting with '0', over 80 characters, or a bad bot id). */
  invalidToken: 'Unauthorized: invalid token specified',
  /** ClientManager.cpp:80 (the bot id before ':' is not a number). */
  unallowedToken: 'Misdirected Request: unallowed token specified',
  /** Client.cpp:16291 (get_closing_error: the token was refused when logging in). */
  unauthorized: 'Unauthorized',
  /** HttpConnection.cpp:34 and :44 (a path not of the form /bot<token>/<method>). */
  notFound: 'Not Found',
  /** Client.cpp:12664. */
  methodNotFound: 'Not Found: method not found',
  /** Client.cpp:125-127 maps USER_IS_BLOCKED to this, prefixed "Forbidden: " (Client.cpp:183-184). */
  blocked: 'Forbidden: bot was blocked by the user',
  /** Client.cpp:15703. */
  webhookActive: "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
  /** Client.cpp:16229 and :16231-16232 (abort_long_poll). */
  terminatedBySetWebhook: 'Conflict: terminated by setWebhook request',
  terminatedByGetUpdates: 'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
  /** Client.cpp:146-148 maps QUERY_ID_INVALID (Telegram's answer to an unknown, answered or expired query) to this. */
  queryIdInvalid: 'query is too old and response timeout expired or query ID is invalid',
  /** Client.cpp:108-111 (MESSAGE_NOT_MODIFIED). */
  notModified:
    'message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
} as const;

/** One error answer. */
export class TelegramError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: Record<string, unknown>,
  ) {
    super(description);
    this.name = 'TelegramError';
  }
}

/**
 * A 400 worded as Client::fail_query_with_error words one (Client.cpp:80-201): "Bad Request: " and the message, its
 * first letter lowered unless it is an ERROR_NAME (second character '_' or upper case).
 */
export function badRequest(message: string): TelegramError {
  const second = message.charAt(1);
  const keep = second === '_' || (second >= 'A' && second <= 'Z');
  return new TelegramError(400, `Bad Request: ${keep ? message : message.charAt(0).toLowerCase() + message.slice(1)}`);
}

/** Query::set_retry_after_error (Query.cpp:105-112). */
export function tooManyRequests(retryAfter: number): TelegramError {
  return new TelegramError(429, `Too Many Requests: retry after ${retryAfter}`, { retry_after: retryAfter });
}

export const required = (name: string) => badRequest(`Parameter "${name}" is required`); // Client.cpp:12370
