import { useLingui } from '@lingui/react';
import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Me } from '../../../shared/auth.js';
import { useAuth } from '../features/auth/auth-context';
import { useConfig } from '../features/config/config-context';
import { BrandLink } from './header/BrandLink';
import { DropdownMenu, MenuGroup, MenuLink } from './header/DropdownMenu';
import { MobileMenu } from './header/MobileMenu';
import { customerName } from './header/customer-name';
import { UserAvatar } from './header/UserAvatar';
import { ChevronDownIcon } from './icons';
import { LanguageSwitcher } from './LanguageSwitcher';
import { DESKTOP_DOWNLOAD_LINKS, FEATURE_LINKS, MOBILE_DOWNLOAD_LINKS, PRICING_LINK, SUPPORT_LINK, TRUST_LINKS, navLabel, type NavLink } from './nav-links';

const navItemClass =
  'flex items-center gap-1 rounded-lg px-3 py-2 text-sm font-medium text-indigo-100 hover:bg-white/10 hover:text-white aria-expanded:bg-white/10 aria-expanded:text-white';

export function Header() {
  const { user, signOut } = useAuth();
  const { brandName } = useConfig();
  const { _ } = useLingui();
  const handleSignOut = () => void signOut();

  return (
    <header className="sticky top-0 z-40 bg-indigo-950 text-white shadow-lg shadow-indigo-950/20">
      <a
        href="#main"
        className="sr-only rounded-lg bg-white px-4 py-2 font-semibold text-indigo-900 focus:not-sr-only focus:absolute focus:top-3 focus:start-3 focus:z-50"
      >
        {_('header.skipToContent')}
      </a>
      <nav aria-label={_('header.mainNav')} className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <BrandLink brandName={brandName} className="text-white" />
        <div className="hidden items-center gap-1 md:flex">
          {user ? <SignedInNav user={user} onSignOut={handleSignOut} /> : <SignedOutNav />}
          <LanguageSwitcher variant="header" />
        </div>
        <MobileMenu brandName={brandName} user={user} onSignOut={handleSignOut} />
      </nav>
    </header>
  );
}

function SignedOutNav() {
  const { _ } = useLingui();
  return (
    <>
      <Link to={PRICING_LINK.to} className={navItemClass}>
        {navLabel(_, PRICING_LINK)}
      </Link>
      <NavDropdown label={_('header.features')}>
        <MenuLinks links={FEATURE_LINKS} />
      </NavDropdown>
      <NavDropdown label={_('header.download')} panelClassName="w-72">
        <div className="grid grid-cols-2 gap-1">
          <MenuGroup label={_('header.desktop')}>
            <MenuLinks links={DESKTOP_DOWNLOAD_LINKS} />
          </MenuGroup>
          <MenuGroup label={_('header.mobile')}>
            <MenuLinks links={MOBILE_DOWNLOAD_LINKS} />
          </MenuGroup>
        </div>
      </NavDropdown>
      <NavDropdown label={_('header.whyTrustUs')}>
        <MenuLinks links={TRUST_LINKS} />
      </NavDropdown>
      <Link to={SUPPORT_LINK.to} className={navItemClass}>
        {navLabel(_, SUPPORT_LINK)}
      </Link>
      <Link to="/login" className="ms-2 rounded-lg bg-indigo-500 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-400">
        {_('header.getStarted')}
      </Link>
    </>
  );
}

/** Only signed-in visitors see the account menu, so it loads once the session says so. */
const AccountMenu = lazy(() => import('./header/AccountMenu').then((module) => ({ default: module.AccountMenu })));

function SignedInNav({ user, onSignOut }: { user: Me; onSignOut: () => void }) {
  const { _ } = useLingui();
  return (
    <>
      <Link to="/dashboard" className={navItemClass}>
        {_('header.myAccounts')}
      </Link>
      <Suspense fallback={<UserAvatar name={customerName(user, _)} />}>
        <AccountMenu user={user} onSignOut={onSignOut} />
      </Suspense>
    </>
  );
}

function NavDropdown({ label, panelClassName, children }: { label: string; panelClassName?: string; children: ReactNode }) {
  return (
    <DropdownMenu
      triggerClassName={navItemClass}
      panelClassName={panelClassName}
      trigger={
        <>
          {label}
          <ChevronDownIcon className="size-4" />
        </>
      }
    >
      {children}
    </DropdownMenu>
  );
}

function MenuLinks({ links }: { links: readonly NavLink[] }) {
  const { _ } = useLingui();
  return links.map((link) => (
    <MenuLink key={link.to} to={link.to} claim={link.claim}>
      {navLabel(_, link)}
    </MenuLink>
  ));
}
