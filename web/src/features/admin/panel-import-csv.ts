import Papa from 'papaparse';

export interface ImportLink {
  username: string;
  email: string;
}

const HEADER = /^\s*username\s*$/i;

/**
 * `username,email` rows from a CSV file or pasted text (comma, semicolon or tab; quoted cells; a header
 * line naming `username` is skipped; blank lines ignored). A line with one cell keeps an empty e-mail, so
 * the server names that row's problem instead of the file silently losing it.
 */
export function parseImportCsv(text: string): ImportLink[] {
  const { data } = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t'] });
  const rows = data.filter((cells) => cells.some((cell) => cell.trim() !== ''));
  const body = rows.length > 0 && HEADER.test(rows[0]![0] ?? '') ? rows.slice(1) : rows;
  return body.map((cells) => ({ username: (cells[0] ?? '').trim(), email: (cells[1] ?? '').trim() }));
}
