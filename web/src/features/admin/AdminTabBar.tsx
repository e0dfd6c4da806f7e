import { useLingui } from '@lingui/react';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useLocale } from '../../i18n/locale-context';
import { useAuth } from '../auth/auth-context';
import { adminTabPath, adminTabsOf, type AdminTabId } from './admin-tabs';

interface AdminTabBarProps {
  selected: AdminTabId;
  idPrefix: string;
}

/**
 * A tablist whose tabs are links to each tab's path (so a tab opens in a new window, and a reload keeps
 * it), with roving focus: arrow keys (mirrored right to left), Home and End move between tabs.
 * It scrolls sideways on a narrow screen, without a scrollbar drawn under the tabs.
 */
export function AdminTabBar({ selected, idPrefix }: AdminTabBarProps) {
  const { _ } = useLingui();
  const { dir } = useLocale();
  const navigate = useNavigate();
  const tabRefs = useRef(new Map<AdminTabId, HTMLAnchorElement>());
  // Only the tabs the staff member's role may open (the server refuses the rest anyway).
  const tabs = adminTabsOf(useAuth().user?.role);

  // On a narrow screen the tab opened (by a link, a reload) may be past the edge: bring it into the strip.
  useEffect(() => {
    tabRefs.current.get(selected)?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [selected]);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const index = tabs.findIndex((tab) => tab.id === selected);
    const last = tabs.length - 1;
    const forward = dir === 'rtl' ? 'ArrowLeft' : 'ArrowRight';
    const back = dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
    const next =
      event.key === forward
        ? (index + 1) % tabs.length
        : event.key === back
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    const tab = next === null ? undefined : tabs[next];
    if (!tab) return;
    event.preventDefault();
    void navigate(adminTabPath(tab.id));
    tabRefs.current.get(tab.id)?.focus();
  }

  return (
    <div role="tablist" aria-label={_('admin.tabs.label')} onKeyDown={onKeyDown} className="no-scrollbar flex gap-1 overflow-x-auto">
      {tabs.map((tab) => {
        const isSelected = tab.id === selected;
        return (
          <Link
            key={tab.id}
            ref={(element) => {
              if (element) tabRefs.current.set(tab.id, element);
              else tabRefs.current.delete(tab.id);
            }}
            to={adminTabPath(tab.id)}
            role="tab"
            id={`${idPrefix}-tab-${tab.id}`}
            aria-selected={isSelected}
            aria-controls={`${idPrefix}-panel-${tab.id}`}
            tabIndex={isSelected ? 0 : -1}
            className={`shrink-0 border-b-2 px-4 py-2.5 text-sm font-semibold ${
              isSelected ? 'border-indigo-600 text-indigo-700' : 'border-transparent text-slate-600 hover:border-slate-300 hover:text-slate-900'
            }`}
          >
            {_(tab.labelId)}
          </Link>
        );
      })}
    </div>
  );
}
