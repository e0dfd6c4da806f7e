import { useLingui } from '@lingui/react';
import { useId } from 'react';
import { useLocation } from 'react-router-dom';
import { LOCALES, LOCALE_NAMES, HREFLANG, isLocale, localizedPath, type Locale } from '../../../shared/locales.js';
import { api } from '../api';
import { useAuth } from '../features/auth/auth-context';
import { useLocale } from '../i18n/locale-context';
import { storeLocale } from '../i18n/locale-choice';
import { GlobeIcon } from './icons';

const STYLES = {
  header: 'bg-transparent text-indigo-100 hover:text-white [&>option]:text-slate-900',
  footer: 'bg-slate-900 text-slate-300 hover:text-white',
  menu: 'bg-white text-slate-700',
} as const;

/**
 * The language menu (header, footer and mobile menu): the same page in another language. The choice
 * is remembered on this device and, when signed in, with the account (e-mails follow it). The desktop
 * app changes language in place; the website opens the page's address in that language.
 */
export function LanguageSwitcher({ variant }: { variant: keyof typeof STYLES }) {
  const { _ } = useLingui();
  const { locale, changeLocale } = useLocale();
  const { user } = useAuth();
  const { pathname, search, hash } = useLocation();
  const id = useId();

  async function choose(next: Locale) {
    if (next === locale) return;
    storeLocale(next);
    if (user) await api.updateMyLocale(next).catch(() => undefined); // the page still changes; e-mails keep the old language
    if (changeLocale) changeLocale(next);
    else window.location.assign(`${localizedPath(next, pathname)}${search}${hash}`);
  }

  return (
    <div className="flex items-center gap-1.5">
      <GlobeIcon className={`size-4 shrink-0 ${variant === 'menu' ? 'text-slate-500' : 'text-current opacity-80'}`} />
      <label htmlFor={id} className="sr-only">
        {_('language.label')}
      </label>
      <select
        id={id}
        value={locale}
        onChange={(event) => isLocale(event.target.value) && void choose(event.target.value)}
        className={`rounded-md border-0 py-1 ps-1 pe-6 text-sm font-medium focus:ring-2 focus:ring-indigo-400 ${STYLES[variant]}`}
      >
        {LOCALES.map((option) => (
          <option key={option} value={option} lang={HREFLANG[option]}>
            {LOCALE_NAMES[option]}
          </option>
        ))}
      </select>
    </div>
  );
}
