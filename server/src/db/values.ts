/**
 * Column values read back differ by dialect: SQLite gives 0/1 for booleans, epoch milliseconds for
 * times written as Date, and text for JSON; PostgreSQL gives booleans, Dates and parsed JSON.
 * Repositories read every such column through these helpers.
 */
export function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number' || typeof value === 'string') return new Date(value);
  throw new TypeError(`Not a date value: ${String(value)}`);
}

export function toDateOrNull(value: unknown): Date | null {
  return value === null || value === undefined ? null : toDate(value);
}

export function toBool(value: unknown): boolean {
  return value === true || value === 1 || value === '1' || value === 't';
}

export function parseJson<T>(value: unknown, fallback: T): T {
  if (value === null || value === undefined) return fallback;
  if (typeof value === 'string') return JSON.parse(value) as T;
  return value as T;
}

export function toJson(value: unknown): string {
  return JSON.stringify(value);
}
