/**
 * YooKassa's list answers: `{ type: "list", items, next_cursor? }`, newest first, `limit` 1–100 (default 10),
 * the next page asked for with `cursor`. The fake's cursor is opaque (the next item's id, encoded), and it
 * stays valid when items change status between pages.
 */
import { invalidParameter } from './http.js';
import type { YookassaList } from './yookassa-objects.js';

const TIME_OPERATORS = ['gte', 'gt', 'lte', 'lt'] as const;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The `<field>.gte|gt|lte|lt` filters of the query as one test on a time (ms); undefined times never match a filter. */
export function timeFilter(query: URLSearchParams, field: string): (ms: number | undefined) => boolean {
  const tests: Array<(ms: number) => boolean> = [];
  for (const operator of TIME_OPERATORS) {
    const raw = query.get(`${field}.${operator}`);
    if (raw === null) continue;
    const bound = ISO_TIME.test(raw) ? Date.parse(raw) : Number.NaN;
    if (Number.isNaN(bound)) throw invalidParameter(`${field}.${operator}`);
    tests.push(
      operator === 'gte' ? (ms) => ms >= bound : operator === 'gt' ? (ms) => ms > bound : operator === 'lte' ? (ms) => ms <= bound : (ms) => ms < bound,
    );
  }
  return (ms) => tests.length === 0 || (ms !== undefined && tests.every((test) => test(ms)));
}

/** A filter on a value from a fixed set (`status=succeeded`); an unknown value is refused. */
export function oneOfFilter(query: URLSearchParams, name: string, allowed: readonly string[] | null): (value: string | undefined) => boolean {
  const wanted = query.get(name);
  if (wanted === null) return () => true;
  if (allowed && !allowed.includes(wanted)) throw invalidParameter(name);
  return (value) => value === wanted;
}

const cursorOf = (id: string): string => Buffer.from(id, 'utf8').toString('base64url');
const idOf = (cursor: string): string => Buffer.from(cursor, 'base64url').toString('utf8');

/**
 * One page of `newestFirst` (every object, newest first), keeping those that `matches`. The cursor names the
 * first object of the next page.
 */
export function listPage<T extends { id: string }>(newestFirst: readonly T[], query: URLSearchParams, matches: (item: T) => boolean): YookassaList<T> {
  const limitText = query.get('limit');
  const limit = limitText === null ? 10 : /^\d{1,3}$/.test(limitText) ? Number(limitText) : Number.NaN;
  if (!(limit >= 1 && limit <= 100)) throw invalidParameter('limit');
  const cursor = query.get('cursor');
  let start = 0;
  if (cursor !== null) {
    start = newestFirst.findIndex((item) => item.id === idOf(cursor));
    if (start === -1) throw invalidParameter('cursor');
  }
  const page: T[] = [];
  let index = start;
  for (; index < newestFirst.length && page.length < limit; index++) {
    if (matches(newestFirst[index]!)) page.push(newestFirst[index]!);
  }
  const next = newestFirst.slice(index).find(matches);
  return { type: 'list', items: page, ...(next ? { next_cursor: cursorOf(next.id) } : {}) };
}
