/** The fake's time: the real clock plus whatever the handle's `advanceTime` added. */
export interface FakeClock {
  now(): number;
  advance(ms: number): void;
}

export function createFakeClock(): FakeClock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance(ms) {
      offset += ms;
    },
  };
}

/** YooKassa's time format: ISO 8601 UTC with milliseconds. */
export const isoTime = (ms: number): string => new Date(ms).toISOString();
