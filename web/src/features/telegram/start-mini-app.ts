import { localizedPath, type Locale } from '../../../../shared/locales.js';
import { storedLocale } from '../../i18n/locale-choice';
import { localeForTelegram, readLaunchHash, readTelegramWebApp, type ColorScheme, type MiniAppLaunch } from './launch-params';
import { miniAppState, rememberLaunch } from './mini-app-state';

/** The pages Telegram may open that a customer in the Mini App wants past: it lands on the dashboard instead. */
const ENTRY_PATHS = new Set(['/', '/login']);

/** The site has one look; in a dark Telegram its form controls and scrollbars are drawn dark at least. */
function applyColorScheme(scheme: ColorScheme): void {
  document.documentElement.style.colorScheme = scheme;
}

/** Where the Mini App should be: the dashboard for the home or sign-in page, in the Telegram app's language unless the visitor chose one. */
function targetPath(launch: MiniAppLaunch, locale: Locale, path: string): string {
  const wanted = (storedLocale() ? null : localeForTelegram(launch.languageCode)) ?? locale;
  return localizedPath(wanted, ENTRY_PATHS.has(path) ? '/dashboard' : path);
}

/**
 * Before the app renders (main.tsx): when Telegram opened the site as a Mini App, keeps its launch data for signing
 * in (this tab only) and takes it out of the address, follows Telegram's light or dark look, and moves to the page
 * the Mini App should show. Answers true when the page is being replaced (nothing should render).
 */
export function startMiniApp(locale: Locale, path: string): boolean {
  const fromHash = readLaunchHash(window.location.hash);
  const launch = fromHash ?? readTelegramWebApp(window);
  if (launch) rememberLaunch(launch);
  // The launch data signs the customer in: it stays out of the history and of a copied address.
  if (fromHash) window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`);
  const colorScheme = miniAppState()?.colorScheme;
  if (colorScheme) applyColorScheme(colorScheme);
  if (!launch) return false;
  const target = targetPath(launch, locale, path);
  if (target === window.location.pathname) return false;
  window.location.replace(`${target}${window.location.search}`);
  return true;
}
