import { useLingui } from '@lingui/react';
import { NavLink, useNavigate } from 'react-router-dom';
import { api } from '../../../../web/src/api';
import { BrandLink } from '../../../../web/src/components/header/BrandLink';
import { useAuth } from '../../../../web/src/features/auth/auth-context';
import { useConfig } from '../../../../web/src/features/config/config-context';
import { customerName } from '../../../../web/src/components/header/customer-name';

const itemClass =
  'rounded-lg px-3 py-2 text-sm font-medium text-indigo-100 hover:bg-white/10 hover:text-white aria-[current=page]:bg-white/10 aria-[current=page]:text-white';

/** Brand, the signed-in e-mail, Settings, and Sign in or Sign out. */
export function DesktopHeader() {
  const { _ } = useLingui();
  const { user, setUser } = useAuth();
  const { brandName } = useConfig();
  const navigate = useNavigate();

  /**
   * The main process ends the session on the server and deletes the keychain entry. The web's
   * signOut reloads the site's home page, which the app does not have: here the app stays open
   * and shows the sign-in screen.
   */
  async function signOut() {
    try {
      await api.auth.logout();
    } catch {
      // Signed out locally all the same; the server session expires on its own.
    }
    setUser(null);
    await navigate('/login', { replace: true });
  }

  return (
    <header className="sticky top-0 z-40 bg-indigo-950 text-white shadow-lg shadow-indigo-950/20">
      <nav aria-label={_('desktop.nav.label')} className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <BrandLink brandName={brandName} className="shrink-0 text-white" />
        <div className="flex min-w-0 items-center gap-1">
          {user && (
            <span className="me-2 hidden truncate text-sm text-indigo-200 sm:block" title={customerName(user, _)}>
              {customerName(user, _)}
            </span>
          )}
          {user && (
            <NavLink to="/dashboard" className={itemClass}>
              {_('desktop.nav.accounts')}
            </NavLink>
          )}
          <NavLink to="/settings" className={itemClass}>
            {_('desktop.nav.settings')}
          </NavLink>
          {user ? (
            <button type="button" onClick={() => void signOut()} className={itemClass}>
              {_('desktop.nav.signOut')}
            </button>
          ) : (
            <NavLink to="/login" className={itemClass}>
              {_('desktop.nav.signIn')}
            </NavLink>
          )}
        </div>
      </nav>
    </header>
  );
}
