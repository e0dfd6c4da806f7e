import { useLingui } from '@lingui/react';
import { useCallback, useRef, type ReactNode } from 'react';
import { cardClass } from './admin-ui';

interface AdminTableProps {
  caption: string;
  columns: readonly string[];
  busy?: boolean;
  /** Shown in one full-width row when there are no rows. */
  emptyText?: string;
  isEmpty?: boolean;
  /**
   * Keep the last column (the row buttons) pinned in view; by default when that column is named
   * 'Actions' (in English or as the admin catalogue's `admin.column.actions` reads).
   */
  pinLastColumn?: boolean;
  children: ReactNode;
}

/**
 * The Users tab's table look (caption, column names and empty text come already translated). On a phone each row
 * is a card with every cell under its column's name; between a phone and a wide screen it scrolls sideways inside its box. `relative` keeps
 * the rows' sr-only text inside the scrolling box (otherwise it widens the whole page). An 'Actions'
 * last column stays pinned to the box's right edge, so the row buttons are on screen on a phone.
 */
export function AdminTable({ caption, columns, busy = false, emptyText, isEmpty = false, pinLastColumn, children }: AdminTableProps) {
  const { _ } = useLingui();
  const last = columns.at(-1);
  const pinned = pinLastColumn ?? (last === 'Actions' || last === _('admin.column.actions'));
  const table = useCellLabels();
  return (
    <div className={`relative overflow-x-auto ${cardClass}`} aria-busy={busy}>
      <table ref={table} className={`admin-table min-w-full divide-y divide-slate-200 text-start text-sm ${pinned ? 'admin-table-pinned-actions' : ''}`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="px-3 py-3 whitespace-nowrap">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {children}
          {isEmpty && emptyText && (
            <tr>
              <td colSpan={columns.length} className="px-4 py-8 text-center text-slate-500">
                {emptyText}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A ref for a table that gives each body cell its column's name as `data-label`, which the phone's card rows
 * (styles.css, `.admin-table`) show above the cell: when the table appears, and whenever its rows or texts change.
 */
export function useCellLabels(): (table: HTMLTableElement | null) => void {
  const observer = useRef<MutationObserver | null>(null);
  return useCallback((table: HTMLTableElement | null) => {
    observer.current?.disconnect();
    observer.current = null;
    if (!table) return;
    const label = () => {
      const names = [...table.querySelectorAll(':scope > thead > tr > th')].map((th) => (th.textContent ?? '').trim());
      for (const row of table.querySelectorAll<HTMLTableRowElement>(':scope > tbody > tr')) {
        [...row.cells].forEach((cell, index) => {
          const name = names[index] ?? '';
          if (cell.dataset.label !== name) cell.dataset.label = name;
        });
      }
    };
    label();
    observer.current = new MutationObserver(label);
    observer.current.observe(table, { childList: true, subtree: true, characterData: true });
  }, []);
}

/** A plain cell with the table's padding. */
export function Cell({ children, className = 'text-slate-700' }: { children: ReactNode; className?: string }) {
  return <td className={`px-3 py-3 ${className}`}>{children}</td>;
}
