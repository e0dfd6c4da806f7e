import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { PROMO_CODE_PATTERN, PROMO_LINK_PARAM } from '../../../../shared/promo-link.js';
import { forgetPromo, rememberedPromo, rememberPromoFromLink } from './remembered-promo';

/** A sessionStorage for the test (vitest runs without a DOM). */
function fakeStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('a promo code from a link', () => {
  afterEach(() => {
    delete (globalThis as { window?: unknown }).window;
  });

  it('keeps a well-formed ?promo= code for the payment dialog, ignores anything else, and forgets it', () => {
    (globalThis as { window?: unknown }).window = { sessionStorage: fakeStorage() };
    rememberPromoFromLink('?plan=x');
    expect(rememberedPromo()).toBeNull();
    rememberPromoFromLink('?promo=%3Cscript%3E');
    expect(rememberedPromo()).toBeNull();
    rememberPromoFromLink('?promo=spring-20');
    expect(rememberedPromo()).toBe('spring-20');
    forgetPromo();
    expect(rememberedPromo()).toBeNull();
  });

  it('is taken by the first script of a prerendered page with the same key and pattern', () => {
    const early = readFileSync(fileURLToPath(new URL('../../load-after-paint.ts', import.meta.url)), 'utf8');
    expect(early).toContain(`.get('${PROMO_LINK_PARAM}')`);
    expect(early).toContain(PROMO_CODE_PATTERN.source.replace(/\\\\/g, '\\\\'));
    expect(early).toContain(`'${readFileSync(fileURLToPath(new URL('./remembered-promo.ts', import.meta.url)), 'utf8').match(/STORAGE_KEY = '([^']+)'/)![1]}'`);
  });
});
