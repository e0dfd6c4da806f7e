/**
 * API error messages in the request's language. The web app sends `Accept-Language: <page locale>`
 * with its API calls; the error handler (plugins/errors.ts) asks `localizeErrorBody` to put the
 * customer-facing messages into that language. `code` (what clients branch on) never changes; a
 * message without a translation, and every message of an English (or language-less) request, stays
 * exactly as the server wrote it.
 */
import { IntlMessageFormat } from 'intl-messageformat';
import type { ApiErrorBody } from '../../../shared/errors.js';
import type { Locale } from '../../../shared/locales.js';
import { CUSTOMER_MESSAGES, TIMED_MESSAGES, type CustomerMessage, type ErrorCatalogue, type TimedMessage } from './en.js';
import { fa } from './fa.js';
import { ru } from './ru.js';
import { zhCN } from './zh-CN.js';

export { CUSTOMER_MESSAGES, TIMED_MESSAGES, type CustomerMessage, type ErrorCatalogue, type TimedMessage } from './en.js';

/** Every language but English (whose messages are the keys). */
export const ERROR_CATALOGUES: Readonly<Record<Exclude<Locale, 'en'>, ErrorCatalogue>> = { ru, fa, 'zh-CN': zhCN };

const customerMessages: ReadonlySet<string> = new Set(CUSTOMER_MESSAGES);
const isCustomerMessage = (message: string): message is CustomerMessage => customerMessages.has(message);
const timedKinds = Object.keys(TIMED_MESSAGES) as TimedMessage[];
const compiled = new Map<string, IntlMessageFormat>();

function formatTimed(locale: Exclude<Locale, 'en'>, kind: TimedMessage, seconds: number): string {
  const key = `${locale}\u0000${kind}`;
  let format = compiled.get(key);
  if (!format) {
    format = new IntlMessageFormat(ERROR_CATALOGUES[locale].timed[kind], locale);
    compiled.set(key, format);
  }
  return String(format.format({ seconds }));
}

/**
 * One English message in `locale`: a listed message by its table; a timed one ("… in 30 seconds") by
 * its ICU message when it is exactly the English text for `retryAfterSeconds`; anything else unchanged.
 */
export function translateErrorMessage(message: string, locale: Locale, retryAfterSeconds?: number): string {
  if (locale === 'en') return message;
  if (isCustomerMessage(message)) return ERROR_CATALOGUES[locale].messages[message];
  if (retryAfterSeconds !== undefined) {
    const kind = timedKinds.find((candidate) => TIMED_MESSAGES[candidate](retryAfterSeconds) === message);
    if (kind) return formatTimed(locale, kind, retryAfterSeconds);
  }
  return message;
}

/** The error body in `locale`: its message and each field's message translated where a translation exists. English: the body itself. */
export function localizeErrorBody(body: ApiErrorBody, locale: Locale, retryAfterSeconds?: number): ApiErrorBody {
  if (locale === 'en') return body;
  const localized: ApiErrorBody = { ...body, message: translateErrorMessage(body.message, locale, retryAfterSeconds) };
  if (body.fields) {
    localized.fields = Object.fromEntries(Object.entries(body.fields).map(([field, message]) => [field, translateErrorMessage(message, locale)]));
  }
  return localized;
}
