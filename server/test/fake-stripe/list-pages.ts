/**
 * Stripe's list endpoints: `{ object: 'list', data, has_more, url }`, newest first, one page of `limit` (1 to 100,
 * default 10) after the `starting_after` object or before the `ending_before` one.
 */
import type Stripe from 'stripe';
import type { FormHash } from './form-body.js';
import { integerParam, optionalString } from './form-params.js';
import { noSuch } from './stripe-errors.js';

/** The pagination parameters every list endpoint takes. */
export const PAGE_PARAMS = ['ending_before', 'limit', 'starting_after'] as const;

/** Newest `created` first; objects created in the same second, the one made last first (as Stripe lists). */
export function newestFirst<T extends { created: number }>(oldestFirst: readonly T[]): T[] {
  return [...oldestFirst].reverse().sort((a, b) => b.created - a.created);
}

/**
 * One page of `newestFirst`. A cursor that names no object of the list is Stripe's 404 ("No such `objectName`"),
 * with the cursor's parameter.
 */
export function listPage<T extends { id: string }>(newestFirst: readonly T[], params: FormHash, objectName: string, url: string): Stripe.ApiList<T> {
  const limit = integerParam(params.limit, 'limit', 1, 100) ?? 10;
  const startingAfter = optionalString(params.starting_after, 'starting_after');
  const endingBefore = optionalString(params.ending_before, 'ending_before');
  const cursor = (id: string, param: string): number => {
    const index = newestFirst.findIndex((object) => object.id === id);
    if (index === -1) throw noSuch(objectName, id, param);
    return index;
  };
  if (endingBefore !== undefined) {
    const before = newestFirst.slice(0, cursor(endingBefore, 'ending_before'));
    return { object: 'list', data: before.slice(-limit), has_more: before.length > limit, url };
  }
  const after = startingAfter === undefined ? newestFirst : newestFirst.slice(cursor(startingAfter, 'starting_after') + 1);
  return { object: 'list', data: after.slice(0, limit), has_more: after.length > limit, url };
}
