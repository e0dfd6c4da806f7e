import { describe, expect, it } from 'vitest';
import { codeDigits } from './code-digits';

describe('codeDigits', () => {
  it('keeps a pasted code whole when it is grouped with a space or a dash', () => {
    expect(codeDigits('123 456')).toBe('123456');
    expect(codeDigits('123-456')).toBe('123456');
    expect(codeDigits(' Your code: 123456\n')).toBe('123456');
  });

  it('reads Persian, Arabic and full-width digits as ASCII ones', () => {
    expect(codeDigits('۱۲۳۴۵۶')).toBe('123456');
    expect(codeDigits('١٢٣٤٥٦')).toBe('123456');
    expect(codeDigits('１２３４５６')).toBe('123456');
  });

  it('stops at six digits', () => {
    expect(codeDigits('1234567')).toBe('123456');
    expect(codeDigits('12a')).toBe('12');
  });
});
