import { useLingui } from '@lingui/react';
import type { ReactNode } from 'react';
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
 * The Users tab's table look (caption, column names and empty text come already translated); it scrolls sideways inside its box on narrow screens. `relative` keeps
 * the rows' sr-only text inside the scrolling box (otherwise it widens the whole page). An 'Actions'
 * last column stays pinned to the box's right edge, so the row buttons are on screen on a phone.
 */
export function AdminTable({ caption, columns, busy = false, emptyText, isEmpty = false, pinLastColumn, children }: AdminTableProps) {
  const { _ } = useLingui();
  const last = columns.at(-1);
  const pinned = pinLastColumn ?? (last === 'Actions' || last === _('admin.column.actions'));
  return (
    <div className={`relative overflow-x-auto ${cardClass}`} aria-busy={busy}>
      <table className={`min-w-full divide-y divide-slate-200 text-start text-sm ${pinned ? 'admin-table-pinned-actions' : ''}`}>
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase">
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col" className="px-4 py-3 whitespace-nowrap">
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

/** A plain cell with the table's padding. */
export function Cell({ children, className = 'text-slate-700' }: { children: ReactNode; className?: string }) {
  return <td className={`px-4 py-3 ${className}`}>{children}</td>;
}
