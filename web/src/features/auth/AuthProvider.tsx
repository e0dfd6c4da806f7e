import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import type { Me } from '../../../../shared/auth.js';
import { MESSAGES } from '../../../../shared/errors.js';
import { api, apiClient, isApiError } from '../../api';
import { useToast } from '../toast/toast-context';
import { AuthContext, type AuthState } from './auth-context';

/**
 * Owns the session. On start: checks the server answers, then asks /api/auth/session, which
 * answers `{ user: null }` rather than a 401 when signed out (and renews a lapsed access cookie).
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const toast = useToast();
  const navigate = useNavigate();
  const [user, setUser] = useState<Me | null>(null);
  const [loading, setLoading] = useState(true);

  const loadUser = useCallback(
    async (isCurrent: () => boolean = () => true) => {
      try {
        const { user: signedIn } = await api.getSession();
        if (isCurrent()) setUser(signedIn);
      } catch (error) {
        if (!isCurrent()) return;
        setUser(null);
        if (!(isApiError(error) && error.status === 401)) toast.error(MESSAGES.profileLoadFailed);
      }
    },
    [toast],
  );

  useEffect(() => {
    let current = true;
    const isCurrent = () => current;

    async function startSession() {
      try {
        await api.getHealth();
      } catch {
        if (!current) return;
        toast.error(MESSAGES.serverUnreachable);
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
  }, [loadUser, toast]);

  useEffect(() => apiClient.onSessionExpired(() => setUser(null)), []);

  const signOut = useCallback(async () => {
    try {
      await api.auth.logout();
    } catch {
      // The cookies may already be gone; signing out locally is what matters to the user.
    }
    // Leave the page first, synchronously: the router renders its updates in a transition, and a
    // guarded page that saw `user = null` before that would redirect to /login instead.
    await navigate('/', { flushSync: true });
    setUser(null);
  }, [navigate]);

  const value = useMemo<AuthState>(
    () => ({ user, loading, setUser, refreshUser: () => loadUser(), signOut }),
    [user, loading, loadUser, signOut],
  );

  return <AuthContext value={value}>{children}</AuthContext>;
}
