/** The fake's ids, shaped like YooKassa's. */
import { randomBytes, randomUUID } from 'node:crypto';

const hex = (bytes: number): string => randomBytes(bytes).toString('hex');

/**
 * A 36-character object id as YooKassa makes them: the time in the first group, then a kind marker
 * (`000f` for payments, `0016` for refunds, as in the docs' examples), e.g.
 * `22e12f66-000f-5000-8000-18db351245c7`.
 */
export function objectId(kind: 'payment' | 'refund', nowMs: number): string {
  const time = (Math.floor(nowMs / 1000) >>> 0).toString(16).padStart(8, '0');
  const marker = kind === 'payment' ? '000f' : '0016';
  const variant = '89ab'[randomBytes(1)[0]! % 4]!;
  return `${time}-${marker}-5000-${variant}${hex(2).slice(0, 3)}-${hex(6)}`;
}

/** The `id` of an error body (a UUID, as in the real answers). */
export const errorId = (): string => randomUUID();

/** `n` random decimal digits (RRNs, auth codes, SBP operation ids). */
export function digits(n: number): string {
  return Array.from(randomBytes(n), (byte) => String(byte % 10)).join('');
}
