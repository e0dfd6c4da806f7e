import type { Clock } from '../src/lib/clock.js';

export interface TestClock {
  now: Clock;
  advance(seconds: number): void;
}

/** Starts at the real time and moves only when told to. */
export function createTestClock(start = new Date()): TestClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance(seconds) {
      current += seconds * 1000;
    },
  };
}
