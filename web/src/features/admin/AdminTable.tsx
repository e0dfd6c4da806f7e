import type { ReactNode } from 'react';
import { cardClass } from './admin-ui';

interface AdminTableProps {
  caption: string;
  columns: readonly string[];
  busy?: boolean;
  /** Shown in one full-width row when there are no rows. */
  emptyText?: string;
  isEmpty?: boolean;
  children: ReactNode;
}

/**
 * The Users tab's table look; it scrolls sideways inside its box on narrow screens. `relative` keeps
 * the rows' sr-only text inside the scrolling box (otherwise it widens the whole page). An 'Actions'
 * last column stays pinned to the box's right edge, so the row buttons are on screen on a phone.
 */
export function AdminTable({ caption, columns, busy = false, emptyText, isEmpty = false, children }: AdminTableProps) {
  return (
    <div className={`relative overflow-x-auto ${cardClass}`} aria-busy={busy}>
      <table className={`min-w-full divide-y divide-slate-200 text-left text-sm ${columns.at(-1) === 'Actions' ? 'admin-table-pinned-actions' : ''}`}>
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
