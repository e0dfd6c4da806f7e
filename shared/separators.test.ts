import { describe, expect, it } from 'vitest';
import { LOCALES } from './locales.js';
import { joinParts, PART_SEPARATOR } from './separators.js';

describe('the separator between the parts of a summary', () => {
  it('is never a character a reader of the language takes for a digit (issue 57: "·" reads as the Persian zero)', () => {
    expect(joinParts(['پلاس ۱ ماهه', 'فرانکفورت'], 'fa')).toBe('پلاس ۱ ماهه – فرانکفورت');
    expect(PART_SEPARATOR.fa).not.toContain('·');
    for (const locale of LOCALES) {
      const digits = new Intl.NumberFormat(locale).format(1234567890);
      for (const character of PART_SEPARATOR[locale].trim()) expect(digits, locale).not.toContain(character);
    }
  });

  it('keeps the middle dot where it reads as one', () => {
    expect(joinParts(['Plus 1 Month', 'Frankfurt'], 'en')).toBe('Plus 1 Month · Frankfurt');
    expect(joinParts(['a'], 'ru')).toBe('a');
  });
});
