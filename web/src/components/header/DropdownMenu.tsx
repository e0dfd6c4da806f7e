import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import type { SiteClaim } from '../../../../shared/site-pages.js';

interface DropdownMenuProps {
  /** What the trigger button shows. */
  trigger: ReactNode;
  /** Accessible name of the trigger when its content is not plain text. */
  triggerLabel?: string;
  triggerClassName?: string;
  align?: 'left' | 'right';
  panelClassName?: string;
  children: ReactNode;
}

const ITEM_SELECTOR = '[role="menuitem"]';

/**
 * A menu button: Enter, Space or the arrow keys open it, arrows move between items, Escape closes
 * it and returns focus to the button; an outside click, Tab or a navigation closes it too.
 */
export function DropdownMenu({ trigger, triggerLabel, triggerClassName = '', align = 'left', panelClassName = 'w-56', children }: DropdownMenuProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const rootRef = useRef<HTMLDivElement>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);
  const focusOnOpen = useRef<'first' | 'last'>('first');
  const { key: locationKey } = useLocation();

  useEffect(() => setOpen(false), [locationKey]);

  useEffect(() => {
    if (!open) return;
    const items = getItems(menuRef.current);
    (focusOnOpen.current === 'last' ? items.at(-1) : items[0])?.focus();

    function closeOnOutsidePointer(event: PointerEvent) {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    }
    document.addEventListener('pointerdown', closeOnOutsidePointer);
    return () => document.removeEventListener('pointerdown', closeOnOutsidePointer);
  }, [open]);

  function openMenu(focus: 'first' | 'last') {
    focusOnOpen.current = focus;
    setOpen(true);
  }

  function closeAndFocusTrigger() {
    setOpen(false);
    triggerRef.current?.focus();
  }

  function onTriggerKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      openMenu(event.key === 'ArrowDown' ? 'first' : 'last');
    } else if (event.key === 'Escape' && open) {
      closeAndFocusTrigger();
    }
  }

  function onMenuKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const items = getItems(menuRef.current);
    const index = items.indexOf(document.activeElement as HTMLElement);
    const focusAt = (next: number) => items[(next + items.length) % items.length]?.focus();
    switch (event.key) {
      case 'Escape':
        event.preventDefault();
        closeAndFocusTrigger();
        break;
      case 'Tab':
        setOpen(false);
        break;
      case 'ArrowDown':
        event.preventDefault();
        focusAt(index + 1);
        break;
      case 'ArrowUp':
        event.preventDefault();
        focusAt(index - 1);
        break;
      case 'Home':
        event.preventDefault();
        focusAt(0);
        break;
      case 'End':
        event.preventDefault();
        focusAt(items.length - 1);
        break;
    }
  }

  function closeOnItemClick(event: MouseEvent<HTMLDivElement>) {
    if ((event.target as HTMLElement).closest(ITEM_SELECTOR)) setOpen(false);
  }

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={triggerRef}
        id={`${id}-trigger`}
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={`${id}-menu`}
        aria-label={triggerLabel}
        onClick={() => (open ? setOpen(false) : openMenu('first'))}
        onKeyDown={onTriggerKeyDown}
        className={triggerClassName}
      >
        {trigger}
      </button>
      <div
        ref={menuRef}
        id={`${id}-menu`}
        role="menu"
        aria-labelledby={`${id}-trigger`}
        hidden={!open}
        onKeyDown={onMenuKeyDown}
        onClick={closeOnItemClick}
        className={`absolute top-full z-50 mt-2 rounded-xl bg-white p-2 text-slate-800 shadow-xl ring-1 ring-slate-900/10 ${
          align === 'right' ? 'end-0' : 'start-0'
        } ${panelClassName}`}
      >
        {children}
      </div>
    </div>
  );
}

function getItems(menu: HTMLElement | null): HTMLElement[] {
  // Items hidden by the site flags (a feature not offered) are skipped.
  return menu ? Array.from(menu.querySelectorAll<HTMLElement>(ITEM_SELECTOR)).filter((item) => getComputedStyle(item).display !== 'none') : [];
}

const itemClass =
  'block w-full rounded-lg px-3 py-2 text-start text-sm font-medium text-slate-700 hover:bg-indigo-50 hover:text-indigo-700 focus:bg-indigo-50 focus:text-indigo-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-inset';

export function MenuLink({ to, claim, children }: { to: string; claim?: SiteClaim; children: ReactNode }) {
  return (
    <Link to={to} role="menuitem" tabIndex={-1} className={itemClass} data-claim={claim}>
      {children}
    </Link>
  );
}

export function MenuButton({ onSelect, children }: { onSelect: () => void; children: ReactNode }) {
  return (
    <button type="button" role="menuitem" tabIndex={-1} onClick={onSelect} className={itemClass}>
      {children}
    </button>
  );
}

/** A labelled set of items inside a menu (e.g. Desktop / Mobile downloads). */
export function MenuGroup({ label, children }: { label: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <div role="group" aria-labelledby={id}>
      <div id={id} className="px-3 pt-2 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">
        {label}
      </div>
      {children}
    </div>
  );
}
