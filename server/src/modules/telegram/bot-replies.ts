import type { Locale } from '../../../../shared/locales.js';
import { nominalLength } from '../../../../shared/plan-months.js';
import { botText, type BotMessageKey } from './bot-messages/index.js';

/** A bot text in the language of the person the update is from. */
export const t = (ctx: { locale: Locale }, key: BotMessageKey, values?: Record<string, string | number>) => botText(ctx.locale, key, values);

/** Text put into an HTML message (`parse_mode: 'HTML'`) as it is. */
export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Answers a button press (its spinner stops). Cosmetic: Telegram refuses an answer to a press older than a few
 * seconds (an update sent again, a slow moment), and what the button asked for is done all the same.
 */
export const stopSpinner = (ctx: { answerCallbackQuery(): Promise<unknown> }) =>
  ctx.answerCallbackQuery().then(
    () => undefined,
    () => undefined,
  );

/** A plan's length as a reader says it: years, months, or days (the pricing page's rule, plan-months.ts). */
export function duration(locale: Locale, days: number): string {
  const length = nominalLength(days);
  if (length?.unit === 'year') return botText(locale, 'duration.years', { count: length.count });
  if (length?.unit === 'month') return botText(locale, 'duration.months', { count: length.count });
  return botText(locale, 'duration.days', { count: days });
}
