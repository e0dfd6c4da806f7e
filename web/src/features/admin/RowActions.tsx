import { useLingui } from '@lingui/react';
import type { ReactNode } from 'react';
import { rowButtonClass } from './admin-ui';
import { StatusBadge } from './StatusBadge';

interface RowActionsProps {
  /** Read out after each button's text, so "Edit" says which row. */
  name: string;
  active: boolean;
  busy: boolean;
  onEdit: () => void;
  onToggle: () => void;
  onDelete: () => void;
  /** More buttons for the row, before Delete. */
  children?: ReactNode;
}

/** Edit, Disable/Enable and Delete for one table row. */
export function RowActions({ name, active, busy, onEdit, onToggle, onDelete, children }: RowActionsProps) {
  const { _ } = useLingui();
  const rowName = <span className="sr-only"> {name}</span>;
  return (
    <div className="flex flex-wrap gap-2">
      <button type="button" onClick={onEdit} disabled={busy} className={rowButtonClass.neutral}>
        {_('admin.row.edit')}
        {rowName}
      </button>
      <button type="button" onClick={onToggle} disabled={busy} className={rowButtonClass.neutral}>
        {active ? _('admin.row.disable') : _('admin.row.enable')}
        {rowName}
      </button>
      {children}
      <button type="button" onClick={onDelete} disabled={busy} className={rowButtonClass.danger}>
        {_('admin.common.delete')}
        {rowName}
      </button>
    </div>
  );
}

/** Active (green) or Disabled (grey). */
export function ActiveBadge({ active }: { active: boolean }) {
  const { _ } = useLingui();
  return <StatusBadge tone={active ? 'green' : 'gray'}>{active ? _('admin.badge.active') : _('admin.badge.disabled')}</StatusBadge>;
}
