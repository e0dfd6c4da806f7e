import { describe, expect, it } from 'vitest';
import { siteContentFor } from '../../../../shared/config.js';
import { isolate } from '../../i18n/bidi';
import { createFormatters } from '../../i18n/format';
import { localizedLocationsClaim } from './locations-claim';

const keep = (text: string) => text;

describe('localizedLocationsClaim', () => {
  it("writes a number claim in the page's digits: Persian digits on a Persian page", () => {
    expect(localizedLocationsClaim('50+', createFormatters('fa'), isolate)).toBe('۵۰+');
    expect(localizedLocationsClaim('1,000+', createFormatters('fa'), isolate)).toBe('۱٬۰۰۰+');
    expect(localizedLocationsClaim('75', createFormatters('fa'), isolate)).toBe('۷۵');
    expect(localizedLocationsClaim('50+', createFormatters('en'), keep)).toBe('50+');
    expect(localizedLocationsClaim('50+', createFormatters('zh-CN'), keep)).toBe('50+');
  });

  it('leaves words as the operator wrote them, isolated where the page asks for it', () => {
    expect(localizedLocationsClaim('over 50', createFormatters('fa'), isolate)).toBe('\u2068over 50\u2069');
    expect(localizedLocationsClaim('более 50', createFormatters('ru'), keep)).toBe('более 50');
  });

  it("takes the page language's claim from the site content translations, else the English one", () => {
    const config = { locationsClaim: '50+', siteContentTranslations: { ru: { locationsClaim: 'более 50' } } };
    expect(localizedLocationsClaim(siteContentFor(config, 'ru').locationsClaim, createFormatters('ru'), keep)).toBe('более 50');
    expect(localizedLocationsClaim(siteContentFor(config, 'fa').locationsClaim, createFormatters('fa'), isolate)).toBe('۵۰+');
  });
});
