import { isStaff } from '../../../../shared/auth.js';
import { can } from '../../../../shared/staff.js';
import { useLingui } from '@lingui/react';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { Me } from '../../../../shared/auth.js';
import { ChevronDownIcon, CloseIcon } from '../icons';
import {
  DESKTOP_DOWNLOAD_LINKS,
  FEATURE_LINKS,
  MOBILE_DOWNLOAD_LINKS,
  MOBILE_TRUST_LINKS,
  PRICING_LINK,
  SUPPORT_LINK,
  navLabel,
  type NavLink,
} from '../nav-links';
import { trapTab } from '../../lib/focus-trap';
import { customerName } from './customer-name';
import { UserAvatar } from './UserAvatar';
import { LanguageSwitcher } from '../LanguageSwitcher';

export interface MobileMenuPanelProps {
  id: string;
  open: boolean;
  brandName: string;
  user: Me | null;
  onSignOut: () => void;
  /** Closes the menu and returns focus to its button. */
  close: () => void;
}

const MD_QUERY = '(min-width: 48rem)';
const linkClass = 'block rounded-lg px-3 py-2.5 text-base font-medium text-slate-700 hover:bg-slate-100';

/**
 * The slide-in panel of the mobile menu, in a chunk of its own (loaded on the first tap): a modal
 * dialog that traps focus, closes on Escape, on the backdrop and when the window grows past `md`.
 */
export default function MobileMenuPanel({ id, open, brandName, user, onSignOut, close }: MobileMenuPanelProps) {
  const { _ } = useLingui();
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    closeRef.current?.focus();
    const previousOverflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    const media = window.matchMedia(MD_QUERY);
    const closeOnWide = () => media.matches && close();
    media.addEventListener('change', closeOnWide);
    return () => {
      document.body.style.overflow = previousOverflow;
      media.removeEventListener('change', closeOnWide);
    };
  }, [open, close]);

  function onPanelKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
    } else if (event.key === 'Tab') {
      trapTab(event, panelRef.current);
    }
  }

  return (
    <>
      <div
        className={`fixed inset-0 z-50 bg-slate-950/60 transition-opacity duration-200 ${open ? 'visible opacity-100' : 'invisible opacity-0'}`}
        onClick={close}
        aria-hidden="true"
      />
      <div
        ref={panelRef}
        id={`${id}-panel`}
        role="dialog"
        aria-modal="true"
        aria-label={_('header.mainMenu')}
        onKeyDown={onPanelKeyDown}
        className={`fixed inset-y-0 end-0 z-50 flex w-full max-w-xs flex-col bg-white text-slate-900 shadow-2xl duration-200 ${
          // Visibility flips at once on open (so focus can move in) and after the slide on close.
          open ? 'visible translate-x-0 transition-transform' : 'invisible translate-x-full rtl:-translate-x-full transition-[transform,visibility]'
        }`}
      >
        <div className="flex h-16 items-center justify-between border-b border-slate-100 px-4">
          <span className="font-bold text-indigo-950">{brandName}</span>
          <button
            ref={closeRef}
            type="button"
            aria-label={_('header.closeMenu')}
            onClick={close}
            className="-me-2 rounded-lg p-2 text-slate-500 hover:bg-slate-100 hover:text-slate-900"
          >
            <CloseIcon className="size-6" />
          </button>
        </div>
        <nav aria-label={_('header.mobileNav')} className="flex-1 overflow-y-auto px-3 py-4">
          {user ? <SignedInItems user={user} onSignOut={onSignOut} /> : <SignedOutItems />}
        </nav>
        <div className="border-t border-slate-100 px-4 py-3">
          <LanguageSwitcher variant="menu" />
        </div>
      </div>
    </>
  );
}

function SignedOutItems() {
  const { _ } = useLingui();
  return (
    <div className="space-y-1">
      <Link to={PRICING_LINK.to} className={linkClass}>
        {navLabel(_, PRICING_LINK)}
      </Link>
      <MenuSection title={_('header.features')}>
        <LinkList links={FEATURE_LINKS} />
      </MenuSection>
      <MenuSection title={_('header.download')}>
        <SubHeading>{_('header.desktop')}</SubHeading>
        <LinkList links={DESKTOP_DOWNLOAD_LINKS} />
        <SubHeading>{_('header.mobile')}</SubHeading>
        <LinkList links={MOBILE_DOWNLOAD_LINKS} />
      </MenuSection>
      <MenuSection title={_('header.whyTrustUs')}>
        <LinkList links={MOBILE_TRUST_LINKS} />
      </MenuSection>
      <Link to={SUPPORT_LINK.to} className={linkClass}>
        {navLabel(_, SUPPORT_LINK)}
      </Link>
      <div className="pt-4">
        <Link to="/login" className="block rounded-lg bg-indigo-600 px-4 py-3 text-center font-semibold text-white hover:bg-indigo-700">
          {_('header.getStarted')}
        </Link>
      </div>
    </div>
  );
}

function SignedInItems({ user, onSignOut }: { user: Me; onSignOut: () => void }) {
  const { _ } = useLingui();
  return (
    <div className="space-y-1">
      <div className="mb-3 flex items-center gap-3 rounded-lg bg-slate-50 px-3 py-3">
        <UserAvatar name={customerName(user, _)} className="size-9 text-base" />
        <span className="min-w-0 truncate text-sm text-slate-700">{customerName(user, _)}</span>
      </div>
      <Link to="/dashboard" className={linkClass}>
        {_('header.myAccounts')}
      </Link>
      {isStaff(user.role) && (
        <Link to="/admin" className={linkClass}>
          {_('header.adminPanel')}
        </Link>
      )}
      {can(user.role, 'customers.write') && (
        <Link to="/create" className={linkClass}>
          {_('header.createAccount')}
        </Link>
      )}
      <button type="button" onClick={onSignOut} className={`${linkClass} w-full text-start`}>
        {_('header.signOut')}
      </button>
    </div>
  );
}

/** A collapsible group of links (a disclosure button). */
function MenuSection({ title, children }: { title: string; children: ReactNode }) {
  const [expanded, setExpanded] = useState(false);
  const id = useId();
  return (
    <div>
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={id}
        onClick={() => setExpanded((value) => !value)}
        className={`${linkClass} flex w-full items-center justify-between`}
      >
        {title}
        <ChevronDownIcon className={`size-5 text-slate-400 transition-transform ${expanded ? 'rotate-180' : ''}`} />
      </button>
      <div id={id} hidden={!expanded} className="ms-3 border-s border-slate-200 ps-2">
        {children}
      </div>
    </div>
  );
}

function SubHeading({ children }: { children: ReactNode }) {
  return <p className="px-3 pt-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">{children}</p>;
}

function LinkList({ links }: { links: readonly NavLink[] }) {
  const { _ } = useLingui();
  return (
    <ul>
      {links.map((link) => (
        <li key={link.to} data-claim={link.claim}>
          <Link to={link.to} className="block rounded-lg px-3 py-2 text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-900">
            {navLabel(_, link)}
          </Link>
        </li>
      ))}
    </ul>
  );
}
