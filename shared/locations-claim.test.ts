import { describe, expect, it } from 'vitest';
import { siteContentFor } from './config.js';
import { localizeLocationsClaim } from './locations-claim.js';

describe('localizeLocationsClaim', () => {
  it("writes a number claim in the page's digits: Persian digits on a Persian page", () => {
    expect(localizeLocationsClaim('50+', 'fa')).toBe('۵۰+');
    expect(localizeLocationsClaim('1,000+', 'fa')).toBe('۱٬۰۰۰+');
    expect(localizeLocationsClaim(' 75 ', 'fa')).toBe('۷۵');
    expect(localizeLocationsClaim('1,000+', 'ru')).toBe('1\u00a0000+');
    expect(localizeLocationsClaim('50+', 'en')).toBe('50+');
    expect(localizeLocationsClaim('50+', 'zh-CN')).toBe('50+');
  });

  it('leaves words as the operator wrote them', () => {
    expect(localizeLocationsClaim('over 50', 'fa')).toBe('over 50');
    expect(localizeLocationsClaim('более 50', 'ru')).toBe('более 50');
  });

  it("takes the page language's claim from the site content translations, else the English one", () => {
    const config = { locationsClaim: '50+', siteContentTranslations: { ru: { locationsClaim: 'более 50' } } };
    expect(localizeLocationsClaim(siteContentFor(config, 'ru').locationsClaim, 'ru')).toBe('более 50');
    expect(localizeLocationsClaim(siteContentFor(config, 'fa').locationsClaim, 'fa')).toBe('۵۰+');
  });
});
