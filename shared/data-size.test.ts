import { describe, expect, it } from 'vitest';
import { formatDataAmount } from './data-size.js';

const NBSP = '\u00a0';
const NNBSP = '\u202f';
const spaces = (text: string) => text.replaceAll(NNBSP, ' ').replaceAll(NBSP, ' ');

describe('formatDataAmount', () => {
  it('writes Persian data amounts in Persian digits and words, as the plan cards do (issue 57)', () => {
    expect(spaces(formatDataAmount(300, 'gigabyte', 'fa'))).toBe('۳۰۰ گیگابایت');
    expect(spaces(formatDataAmount(5, 'megabyte', 'fa', { intlLocale: 'fa-IR' }))).toBe('۵ مگابایت');
    expect(formatDataAmount(84.3, 'megabyte', 'fa', { fractionDigits: 1 })).not.toMatch(/[A-Za-z0-9]/);
  });

  it('keeps the short unit symbols in the other languages', () => {
    expect(spaces(formatDataAmount(300, 'gigabyte', 'en'))).toBe('300 GB');
    expect(spaces(formatDataAmount(300, 'gigabyte', 'ru'))).toBe('300 ГБ');
    expect(spaces(formatDataAmount(300, 'gigabyte', 'zh-CN'))).toBe('300 GB');
    expect(spaces(formatDataAmount(5, 'gigabyte', 'ru', { fractionDigits: 2, exact: true, intlLocale: 'ru-RU' }))).toBe('5,00 ГБ');
  });
});
