/** Test clocks (`/v1/test_helpers/test_clocks`): the object and its parameters. */
import type Stripe from 'stripe';
import type { FormHash } from './form-body.js';
import { integerParam, optionalString, rejectUnknown } from './form-params.js';
import { invalidParam, missingParam } from './stripe-errors.js';
import { stripeId } from './stripe-ids.js';

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
