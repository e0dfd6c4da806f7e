import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
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
    // A full load of the home page: nothing of the session stays in memory, and no guarded page
    // gets to react to the missing user first (it would send the visitor to /login).
    window.location.assign('/');
  }, []);

  const value = useMemo<AuthState>(
    () => ({ user, loading, setUser, refreshUser: () => loadUser(), signOut }),
    [user, loading, loadUser, signOut],
  );

  return <AuthContext value={value}>{children}</AuthContext>;
}
