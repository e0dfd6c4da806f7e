import type { AuditLogEntry } from '../../../../shared/audit.js';

const COLUMNS = ['id', 'createdAt', 'actorEmail', 'actorId', 'action', 'targetType', 'targetId', 'userId', 'ip', 'details'] as const;

/**
 * One CSV cell: quoted, and a value a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, a tab
 * or a carriage return) is prefixed with `'`, so an action or a detail a customer typed can never run there.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

/** The entries as CSV text, a header line first, lines ended by CRLF (RFC 4180). */
export function toAuditCsv(entries: readonly AuditLogEntry[]): string {
  const lines = [COLUMNS.join(','), ...entries.map((entry) => COLUMNS.map((column) => csvCell(entry[column])).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}
