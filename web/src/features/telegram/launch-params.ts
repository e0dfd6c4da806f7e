import { LOCALES, type Locale } from '../../../../shared/locales.js';

/** Telegram's light or dark look, as the page follows it. */
export type ColorScheme = 'light' | 'dark';

/** What Telegram's app hands a Mini App it opens, as the page uses it. */
export interface MiniAppLaunch {
  /** The signed launch data (`initData`): sent to the server as it is, which checks it. */
  initData: string;
  /** Telegram's look, from its theme's background colour; null when it gave no theme. */
  colorScheme: ColorScheme | null;
  /** The language of the user's Telegram app (`user.language_code`): a hint for the page's language, nothing more. */
  languageCode: string | null;
}

/** What Telegram's own script (telegram-web-app.js) puts on `window`, when a page loads it. */
interface TelegramWebApp {
  initData?: string;
  colorScheme?: string;
}

/** A `#rrggbb` colour's lightness (0 black, 1 white), as Telegram's script decides a theme is dark. */
function lightness(hex: string): number | null {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) return null;
  const value = parseInt(match[1]!, 16);
  const [r, g, b] = [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff];
  return (0.299 * r + 0.587 * g + 0.114 * b) / 255;
}

/** Dark when Telegram's theme has a dark background (`bg_color` of `tgWebAppThemeParams`, JSON). */
export function colorSchemeOf(themeParams: string | null): ColorScheme | null {
  if (!themeParams) return null;
  try {
    const background = (JSON.parse(themeParams) as { bg_color?: unknown }).bg_color;
    const level = typeof background === 'string' ? lightness(background) : null;
    return level === null ? null : level < 0.5 ? 'dark' : 'light';
  } catch {
    return null;
  }
}

/** The `language_code` of the user the launch data names (read, not trusted: the server checks the data). */
function languageCodeOf(initData: string): string | null {
  try {
    const user = JSON.parse(new URLSearchParams(initData).get('user') ?? 'null') as { language_code?: unknown } | null;
    return typeof user?.language_code === 'string' ? user.language_code : null;
  } catch {
    return null;
  }
}

/** Telegram's launch parameters in the page's hash (`#tgWebAppData=…&tgWebAppVersion=…&tgWebAppThemeParams=…`), if any. */
export function readLaunchHash(hash: string): MiniAppLaunch | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const initData = params.get('tgWebAppData');
  if (!initData) return null;
  return { initData, colorScheme: colorSchemeOf(params.get('tgWebAppThemeParams')), languageCode: languageCodeOf(initData) };
}

/** The same from Telegram's script, when the page has loaded it (`window.Telegram.WebApp`). */
export function readTelegramWebApp(scope: object): MiniAppLaunch | null {
  const webApp = (scope as { Telegram?: { WebApp?: TelegramWebApp } }).Telegram?.WebApp;
  if (!webApp?.initData) return null;
  const colorScheme = webApp.colorScheme === 'dark' || webApp.colorScheme === 'light' ? webApp.colorScheme : null;
  return { initData: webApp.initData, colorScheme, languageCode: languageCodeOf(webApp.initData) };
}

/** Our language for a Telegram app's (`ru`, `fa`, `zh-hans`, `pt-br` …): null when we do not speak it. */
export function localeForTelegram(languageCode: string | null): Locale | null {
  const language = languageCode?.toLowerCase().split(/[-_]/)[0];
  if (!language) return null;
  if (language === 'zh') return 'zh-CN';
  return LOCALES.find((locale) => locale === language) ?? null;
}
