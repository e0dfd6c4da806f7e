/** The performance table in docs/performance.md: a Markdown table written between two marker comments. */

export const TABLE_START = '<!-- bench:table:start -->';
export const TABLE_END = '<!-- bench:table:end -->';

export function renderMarkdownTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const line = (cells: readonly string[]) => `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/** `doc` with everything between the markers replaced by `content`; the markers must be there, once each, in order. */
export function replaceBetweenMarkers(doc: string, content: string): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < 0 || end < start || doc.indexOf(TABLE_START, start + 1) >= 0 || doc.indexOf(TABLE_END, end + 1) >= 0) {
    throw new Error(`expected one ${TABLE_START} followed by one ${TABLE_END}`);
  }
  return `${doc.slice(0, start + TABLE_START.length)}\n${content.trim()}\n${doc.slice(end)}`;
}
