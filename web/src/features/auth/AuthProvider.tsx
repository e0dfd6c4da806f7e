import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Me } from '../../../../shared/auth.js';
import { MESSAGES } from '../../../../shared/errors.js';
import { localizedPath } from '../../../../shared/locales.js';
import { api, apiClient, isApiError } from '../../api';
import { i18nFor, loadCatalogs, type Namespace } from '../../i18n/catalogs';
import { useLocale } from '../../i18n/locale-context';
import { signInFromMiniApp, useTelegramLinking } from '../telegram/telegram-sign-in';
import { useToast } from '../toast/toast-context';
import { AuthContext, type AuthState } from './auth-context';

const LOGIN: readonly Namespace[] = ['login'];

/**
 * Owns the session. On start: checks the server answers, then asks /api/auth/session, which
 * answers `{ user: null }` rather than a 401 when signed out (and renews a lapsed access cookie).
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const toast = useToast();
  const { locale } = useLocale();
  const [user, setUser] = useState<Me | null>(null);
  const [loading, setLoading] = useState(true);
  // Read when a toast is due, so that another language (the desktop app's setting) does not start the session over.
  const localeRef = useRef(locale);
  useEffect(() => {
    localeRef.current = locale;
  }, [locale]);

  /**
   * An error toast from the `login` catalogue, which this provider (above every page) loads only
   * when it has something to say; the spec's English text if even that fails (e.g. the server is down).
   */
  const toastError = useCallback(
    (id: 'login.error.profileLoadFailed' | 'login.error.serverUnreachable', english: string) => {
      const current = localeRef.current;
      loadCatalogs(current, LOGIN).then(
        () => toast.error(i18nFor(current)._(id)),
        () => toast.error(english),
      );
    },
    [toast],
  );

  const loadUser = useCallback(
    async (isCurrent: () => boolean = () => true) => {
      try {
        const { user: session } = await api.getSession();
        // In Telegram's Mini App, signed out: the customer its Telegram user is linked to signs in.
        const signedIn = await signInFromMiniApp(session);
        if (isCurrent()) setUser(signedIn);
      } catch (error) {
        if (!isCurrent()) return;
        setUser(null);
        if (!(isApiError(error) && error.status === 401)) toastError('login.error.profileLoadFailed', MESSAGES.profileLoadFailed);
      }
    },
    [toastError],
  );

  useEffect(() => {
    let current = true;
    const isCurrent = () => current;

    async function startSession() {
      try {
        await api.getHealth();
      } catch {
        if (!current) return;
        toastError('login.error.serverUnreachable', MESSAGES.serverUnreachable);
        setUser(null);
        setLoading(false);
        return;
      }
      await loadUser(isCurrent);
      if (current) setLoading(false);
    }

    void startSession();
    return () => {
      current = false;
    };
  }, [loadUser, toastError]);

  useEffect(() => apiClient.onSessionExpired(() => setUser(null)), []);
  useTelegramLinking(user);

  const signOut = useCallback(async () => {
    try {
      await api.auth.logout();
    } catch {
      // The cookies may already be gone; signing out locally is what matters to the user.
    }
    // A full load of the home page: nothing of the session stays in memory, and no guarded page
    // gets to react to the missing user first (it would send the visitor to /login). In the page's language.
    window.location.assign(localizedPath(locale, '/'));
  }, [locale]);

  const value = useMemo<AuthState>(() => ({ user, loading, setUser, refreshUser: () => loadUser(), signOut }), [user, loading, loadUser, signOut]);

  return <AuthContext value={value}>{children}</AuthContext>;
}
