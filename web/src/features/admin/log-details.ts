/** A log entry's details on one line: "key: value" pairs, nested values as compact JSON. */
export function formatLogDetails(details: Record<string, unknown> | string | null | undefined): string {
  if (details === null || details === undefined) return '';
  if (typeof details === 'string') return details;
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}
