import { createContext, useContext } from 'react';
import type { Me } from '../../../../shared/auth.js';

export interface AuthState {
  /** The signed-in user, or null when signed out (or while loading). */
  user: Me | null;
  /** True until the start-up check (health, then /api/me) has finished. */
  loading: boolean;
  /** Sets the user after a successful sign-in. */
  setUser(user: Me | null): void;
  /** Reads /api/me again (e.g. after the role or trial flag changed). */
  refreshUser(): Promise<void>;
  /** Ends the session on the server, forgets the user and goes home. */
  signOut(): Promise<void>;
}

export const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth must be used inside <AuthProvider>');
  return auth;
}
