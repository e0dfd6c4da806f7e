import { useLingui } from '@lingui/react';
import { lazy, Suspense, useCallback, useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { Me } from '../../../../shared/auth.js';
import { MenuIcon } from '../icons';

interface MobileMenuProps {
  brandName: string;
  user: Me | null;
  onSignOut: () => void;
}

const loadPanel = () => import('./MobileMenuPanel');
const MobileMenuPanel = lazy(loadPanel);

/**
 * The menu button below the `md` breakpoint. Its panel is loaded only when someone is about to use
 * it (pointer over or touching the button, or the first open), which keeps it out of every page's
 * first download; it closes on navigation and returns focus to the button.
 */
export function MobileMenu({ brandName, user, onSignOut }: MobileMenuProps) {
  const { _ } = useLingui();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const id = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const { key: locationKey } = useLocation();

  useEffect(() => setOpen(false), [locationKey]);

  const close = useCallback(() => {
    setOpen(false);
    buttonRef.current?.focus();
  }, []);

  return (
    <div className="md:hidden">
      <button
        ref={buttonRef}
        type="button"
        aria-label={_('header.openMenu')}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={wanted ? `${id}-panel` : undefined}
        onPointerEnter={() => void loadPanel()}
        onTouchStart={() => void loadPanel()}
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
        className="-me-2 rounded-lg p-2 text-indigo-100 hover:bg-white/10 hover:text-white"
      >
        <MenuIcon className="size-6" />
      </button>
      {wanted && (
        <Suspense fallback={null}>
          <MobileMenuPanel id={`${id}-panel`} open={open} brandName={brandName} user={user} onSignOut={onSignOut} close={close} />
        </Suspense>
      )}
    </div>
  );
}
