import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOCALE_STORAGE_KEY } from '../../../../web/src/i18n/locale-choice';
import { applyDocumentLocale, desktopLocale, systemLocale } from './desktop-locale';

/** A stand-in for the renderer's localStorage. */
function storage(entries: Record<string, string> = {}) {
  const values = new Map(Object.entries(entries));
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("the desktop app's language", () => {
  it.each([
    [['ru-RU', 'en-US'], 'ru'],
    [['fa-IR'], 'fa'],
    [['zh-TW', 'en'], 'zh-CN'],
    [['zh-Hans-CN'], 'zh-CN'],
    [['de-DE', 'ru'], 'ru'],
    [['de-DE', 'fr'], 'en'],
    [['en-GB', 'ru'], 'en'],
  ])('follows the OS: %j reads %s', (languages, expected) => {
    vi.stubGlobal('navigator', { languages, language: languages[0] });
    expect(systemLocale()).toBe(expected);
  });

  it("is the user's choice when there is one, the OS's otherwise", () => {
    vi.stubGlobal('navigator', { languages: ['ru-RU'], language: 'ru-RU' });
    vi.stubGlobal('localStorage', storage({ [LOCALE_STORAGE_KEY]: 'fa' }));
    expect(desktopLocale()).toBe('fa');
    vi.stubGlobal('localStorage', storage({ [LOCALE_STORAGE_KEY]: 'klingon' }));
    expect(desktopLocale()).toBe('ru');
    vi.stubGlobal('localStorage', storage());
    expect(desktopLocale()).toBe('ru');
  });

  it('sets lang and dir on <html>', () => {
    const root = { lang: '', dir: '' };
    vi.stubGlobal('document', { documentElement: root });
    applyDocumentLocale('fa');
    expect(root).toEqual({ lang: 'fa', dir: 'rtl' });
    applyDocumentLocale('zh-CN');
    expect(root).toEqual({ lang: 'zh-CN', dir: 'ltr' });
  });
});
