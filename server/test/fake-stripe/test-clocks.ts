/** Test clocks (`/v1/test_helpers/test_clocks`): the object and its parameters. */
import type Stripe from 'stripe';
import type { FormHash } from './form-body.js';
import { integerParam, optionalString, rejectUnknown } from './form-params.js';
import { invalidParam, missingParam } from './stripe-errors.js';
import { stripeId } from './stripe-ids.js';
import { itemOf, type SubscriptionObject } from './subscription-objects.js';

/** A test clock exactly as the SDK types it. */
export type TestClockObject = Stripe.TestHelpers.TestClock;

/** Stripe deletes a test clock 30 days after it was created. */
const LIFETIME_SECONDS = 30 * 24 * 60 * 60;

export function parseTestClockCreate(params: FormHash): { frozenTime: number; name: string | null } {
  rejectUnknown(params, new Set(['expand', 'frozen_time', 'name']), '');
  const frozenTime = integerParam(params.frozen_time, 'frozen_time', 0);
  if (frozenTime === undefined) throw missingParam('frozen_time');
  return { frozenTime, name: optionalString(params.name, 'name') ?? null };
}

/** `POST …/:id/advance`: the new frozen_time, which must lie ahead of the clock's. */
export function parseAdvance(params: FormHash, clock: TestClockObject): number {
  rejectUnknown(params, new Set(['expand', 'frozen_time']), '');
  const frozenTime = integerParam(params.frozen_time, 'frozen_time', 0);
  if (frozenTime === undefined) throw missingParam('frozen_time');
  if (frozenTime <= clock.frozen_time) {
    throw invalidParam('frozen_time', 'The frozen time must be after the current frozen time of the test clock.');
  }
  return frozenTime;
}

export function newTestClock(input: { frozenTime: number; name: string | null }, created: number): TestClockObject {
  return {
    id: stripeId('clock_1', 23),
    object: 'test_helpers.test_clock',
    created,
    deletes_after: created + LIFETIME_SECONDS,
    frozen_time: input.frozenTime,
    livemode: false,
    name: input.name,
    status: 'ready',
    status_details: {},
  };
}

const HOUR = 60 * 60;
const DAY = 24 * HOUR;

/**
 * Where "advance to the next renewal" moves a clock: 2 hours after the earliest period end among the clock's
 * subscriptions that are not canceled (past the renewal invoice's draft hour, so it is finalized and charged too),
 * or 1 day on when there is none.
 */
export function nextRenewalTime(clock: TestClockObject, subscriptions: readonly SubscriptionObject[]): number {
  const periodEnds = subscriptions
    .filter((subscription) => subscription.test_clock === clock.id && subscription.status !== 'canceled')
    .map((subscription) => itemOf(subscription).current_period_end);
  const target = periodEnds.length > 0 ? Math.min(...periodEnds) + 2 * HOUR : clock.frozen_time + DAY;
  return target > clock.frozen_time ? target : clock.frozen_time + DAY;
}
