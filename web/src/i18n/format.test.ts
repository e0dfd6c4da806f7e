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
