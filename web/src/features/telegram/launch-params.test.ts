import { describe, expect, it } from 'vitest';
import { colorSchemeOf, localeForTelegram, readLaunchHash, readTelegramWebApp } from './launch-params';

const INIT_DATA = `query_id=AAH&user=${encodeURIComponent(JSON.stringify({ id: 1, first_name: 'Ann', language_code: 'ru' }))}&auth_date=1760000000&hash=${'a'.repeat(64)}`;
const THEME = JSON.stringify({ bg_color: '#17212b', text_color: '#f5f5f5' });

describe('the launch parameters Telegram gives a Mini App', () => {
  it('reads the launch data, the look and the language from the hash, the data exactly as signed', () => {
    const hash = `#tgWebAppData=${encodeURIComponent(INIT_DATA)}&tgWebAppVersion=8.0&tgWebAppPlatform=android&tgWebAppThemeParams=${encodeURIComponent(THEME)}`;
    expect(readLaunchHash(hash)).toEqual({ initData: INIT_DATA, colorScheme: 'dark', languageCode: 'ru' });
  });

  it('finds none in a hash without tgWebAppData, and takes data without a theme or a user', () => {
    expect(readLaunchHash('')).toBeNull();
    expect(readLaunchHash('#section-2')).toBeNull();
    expect(readLaunchHash('#tgWebAppVersion=8.0')).toBeNull();
    expect(readLaunchHash('#tgWebAppData=auth_date%3D1%26hash%3Dab')).toEqual({ initData: 'auth_date=1&hash=ab', colorScheme: null, languageCode: null });
  });

  it('follows the theme’s background: dark or light, nothing for a theme it cannot read', () => {
    expect(colorSchemeOf(JSON.stringify({ bg_color: '#ffffff' }))).toBe('light');
    expect(colorSchemeOf(JSON.stringify({ bg_color: '#212121' }))).toBe('dark');
    expect(colorSchemeOf(JSON.stringify({ bg_color: 'blue' }))).toBeNull();
    expect(colorSchemeOf('{not json')).toBeNull();
    expect(colorSchemeOf(null)).toBeNull();
  });

  it('reads Telegram’s script when a page loaded it', () => {
    expect(readTelegramWebApp({ Telegram: { WebApp: { initData: INIT_DATA, colorScheme: 'light' } } })).toEqual({
      initData: INIT_DATA,
      colorScheme: 'light',
      languageCode: 'ru',
    });
    expect(readTelegramWebApp({ Telegram: { WebApp: { initData: '' } } })).toBeNull();
    expect(readTelegramWebApp({})).toBeNull();
  });

  it('maps the Telegram app’s language to ours, any Chinese to Simplified Chinese, others to none', () => {
    expect(['ru', 'fa', 'en', 'en-US', 'zh-hans', 'zh-hant', 'pt-br', '', null].map(localeForTelegram)).toEqual([
      'ru',
      'fa',
      'en',
      'en',
      'zh-CN',
      'zh-CN',
      null,
      null,
      null,
    ]);
  });
});
