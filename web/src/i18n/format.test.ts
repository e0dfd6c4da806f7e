import { describe, expect, it } from 'vitest';
import { createFormatters } from './format';

describe('file sizes to download', () => {
  it('are megabytes to a tenth, or whole kilobytes under one, as each language writes them', () => {
    const en = createFormatters('en');
    expect(en.fileSize(88_392_704)).toBe('84.3 MB');
    expect(en.fileSize(4096)).toBe('4 kB');
    expect(en.fileSize(10)).toBe('1 kB');
    expect(createFormatters('ru').fileSize(88_392_704)).toBe('84,3 МБ');
    expect(createFormatters('fa').fileSize(88_392_704)).toMatch(/^۸۴٫۳/);
  });
});

describe('percentages', () => {
  it('reads as each language writes a percentage: no space before % in English', () => {
    expect(createFormatters('en').percent(20)).toBe('20%');
    expect(createFormatters('ru').percent(20)).toBe('20\u00a0%');
    expect(createFormatters('fa').percent(20)).toMatch(/^[۰-۹]+٪|٪[۰-۹]+$/);
    expect(createFormatters('zh-CN').percent(20)).toBe('20%');
  });
});
