import type { Broadcast } from './broadcast.js';

/** Broadcast channel on which instances tell each other that what the public pages show has changed. */
const CHANNEL = 'site-changed';

export interface ChangeSignal {
  /** Moves whenever `changed()` is called here or, through the broadcast (Redis or PostgreSQL), on any instance. */
  version(): number;
  /** Something the public pages or settings show has changed: caches keyed by the version miss from now on. */
  changed(): void;
}

/**
 * One number for "the site changed": settings, card settings or plans. Caches (pages, public settings)
 * keep their content while it stays the same. With Redis or PostgreSQL's LISTEN/NOTIFY behind the
 * broadcast, a change on any instance moves every instance's number; while that link is down, each
 * instance still sees its own changes at once and the caches' short lifetime bounds how stale another
 * instance can be.
 */
export function createChangeSignal(broadcast: Broadcast): ChangeSignal {
  let version = 0;
  const bump = () => {
    version += 1;
  };
  broadcast.subscribe(CHANNEL, bump);
  broadcast.onResume(bump);
  return {
    version: () => version,
    changed: () => broadcast.publish(CHANNEL, String(Date.now())),
  };
}
