import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../../../../shared/locales.js';
import { en, type BotMessageKey } from './en.js';
import { BOT_CATALOGUES, botText } from './index.js';

/** The placeholders a message names (`{brand}`, `{count, plural, …}`), plural cases' `#` aside. */
const placeholders = (message: string) => new Set([...message.matchAll(/\{\s*(\w+)\s*[,}]/g)].map((match) => match[1]!));

describe('the bot’s texts', () => {
  const keys = Object.keys(en) as BotMessageKey[];

  it.each(LOCALES)('%s: every text names the placeholders the English one does, and formats with them', (locale) => {
    for (const key of keys) {
      const english = placeholders(en[key]);
      expect([...placeholders(BOT_CATALOGUES[locale][key])].sort(), `${locale} ${key}`).toEqual([...english].sort());
      for (const count of [0, 1, 2, 5, 21]) {
        const values = Object.fromEntries([...english].map((name) => [name, count]));
        const text = botText(locale, key, values);
        expect(text, `${locale} ${key}`).not.toMatch(/[{}]/);
        expect(text.trim().length, `${locale} ${key}`).toBeGreaterThan(0);
      }
    }
  });

  it('is translated: no other language repeats an English sentence', () => {
    for (const locale of LOCALES.filter((candidate) => candidate !== 'en')) {
      const same = keys.filter((key) => /[a-z]{4,} [a-z]{3,}/.test(en[key]) && BOT_CATALOGUES[locale][key] === en[key]);
      expect(same, locale).toEqual([]);
    }
  });
});
