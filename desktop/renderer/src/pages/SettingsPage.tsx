import { Trans, useLingui } from '@lingui/react';
import { useId, useState, type FormEvent } from 'react';
import { version } from '../../../../package.json';
import { HREFLANG, LOCALES, LOCALE_NAMES, isLocale, type Locale } from '../../../../shared/locales.js';
import { api } from '../../../../web/src/api';
import { useAuth } from '../../../../web/src/features/auth/auth-context';
import { BUTTON } from '../../../../web/src/features/accounts/button-styles';
import { useLocale } from '../../../../web/src/i18n/locale-context';
import { storeLocale, storedLocale } from '../../../../web/src/i18n/locale-choice';
import { systemLocale } from '../app/desktop-locale';
import { useDesktopPlatform } from '../app/use-desktop-platform';

/**
 * The main process's refusals of a server address (desktop/main/server-url.ts), in English: each
 * shows in the app's language; one not listed here shows as it came.
 */
const SERVER_URL_MESSAGES: Readonly<Record<string, string>> = {
  'Enter the server address.': 'desktop.serverUrl.empty',
  'The server address is too long.': 'desktop.serverUrl.tooLong',
  'Enter a full address such as https://vpn.example.com.': 'desktop.serverUrl.notUrl',
  'The server address must start with https://.': 'desktop.serverUrl.notHttps',
  'Use https:// (http:// is only allowed for localhost).': 'desktop.serverUrl.httpLocalOnly',
  'The server address must not contain a user name or password.': 'desktop.serverUrl.credentials',
  'Enter the server address without a path, e.g. https://vpn.example.com.': 'desktop.serverUrl.path',
};

/** The `<select>` value of "System default" (no choice of the user's). */
const SYSTEM = '';

/**
 * The server this app talks to (changing it signs out and starts the app over), the app's language
 * (the OS's unless the user picks one), and the app's version.
 */
export function SettingsPage() {
  const { _ } = useLingui();
  const id = useId();
  const desktop = useDesktopPlatform();
  const { user } = useAuth();
  const { changeLocale } = useLocale();
  const [address, setAddress] = useState(desktop.serverUrl);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [language, setLanguage] = useState<Locale | typeof SYSTEM>(() => storedLocale() ?? SYSTEM);
  const unchanged = address.trim() === desktop.serverUrl;

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    const result = await desktop.setServerUrl(address.trim()).catch(() => ({ ok: false as const, message: null }));
    if (!result.ok) {
      const known = result.message === null ? 'desktop.settings.saveFailed' : SERVER_URL_MESSAGES[result.message];
      setError(known ? _(known) : result.message);
      setBusy(false);
      return;
    }
    // Another server: another session, brand and settings. Start over on its sign-in screen.
    window.location.hash = '/login';
    window.location.reload();
  }

  function chooseLanguage(choice: string) {
    const chosen = isLocale(choice) ? choice : null;
    setLanguage(chosen ?? SYSTEM);
    storeLocale(chosen);
    const next = chosen ?? systemLocale();
    // Signed in, the account's e-mails follow the app's language; the app changes all the same if that fails.
    if (user) void api.updateMyLocale(next).catch(() => undefined);
    changeLocale?.(next);
  }

  return (
    <div className="mx-auto max-w-2xl px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight text-slate-900">{_('desktop.settings.title')}</h1>

      <section aria-labelledby={`${id}-server`} className="mt-8 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id={`${id}-server`} className="text-lg font-semibold text-slate-900">
          {_('desktop.settings.server')}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          <Trans
            id="desktop.settings.serverText"
            values={{ url: desktop.serverUrl }}
            components={{ 0: <span className="font-mono break-all text-slate-900" /> }}
          />
        </p>
        {error && (
          <div role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            {error}
          </div>
        )}
        <form onSubmit={(event) => void save(event)} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="min-w-0 flex-1">
            <label htmlFor={`${id}-address`} className="block text-sm font-medium text-slate-700">
              {_('desktop.settings.address')}
            </label>
            <input
              id={`${id}-address`}
              name="serverUrl"
              type="url"
              required
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              dir="ltr"
              placeholder="https://vpn.example.com"
              value={address}
              onChange={(event) => setAddress(event.target.value)}
              readOnly={busy}
              className="mt-1 block w-full rounded-lg border border-slate-300 bg-white px-3.5 py-2.5 font-mono text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/40 focus:outline-none"
            />
          </div>
          <button type="submit" disabled={busy || unchanged} className={`${BUTTON.primary} py-2.5`}>
            {busy ? _('desktop.settings.saving') : _('desktop.settings.save')}
          </button>
        </form>
      </section>

      <section aria-labelledby={`${id}-language`} className="mt-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h2 id={`${id}-language`} className="text-lg font-semibold text-slate-900">
          {_('desktop.settings.language')}
        </h2>
        <p id={`${id}-language-hint`} className="mt-1 text-sm text-slate-600">
          {_('desktop.settings.languageHint')}
        </p>
        <select
          aria-labelledby={`${id}-language`}
          aria-describedby={`${id}-language-hint`}
          name="locale"
          value={language}
          onChange={(event) => chooseLanguage(event.target.value)}
          className="mt-4 block w-full rounded-lg border border-slate-300 bg-white py-2.5 ps-3.5 pe-10 text-sm text-slate-900 shadow-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/40 focus:outline-none sm:w-auto"
        >
          <option value={SYSTEM}>{_('desktop.settings.systemDefault')}</option>
          {LOCALES.map((option) => (
            <option key={option} value={option} lang={HREFLANG[option]}>
              {LOCALE_NAMES[option]}
            </option>
          ))}
        </select>
      </section>

      <p className="mt-6 text-sm text-slate-500">{_('desktop.settings.version', { version })}</p>
    </div>
  );
}
