/** What one listener does with an event; awaited before the next listener runs. */
export type Listener<Payload> = (payload: Payload) => Promise<void> | void;

/** One listener per event name, as a module declares them (`listeners` in its manifest). */
export type Listeners<Events> = { [Name in keyof Events]?: Listener<Events[Name]> };

export interface EventBus<Events> {
  /** Adds a listener; the function returned removes it. */
  on<Name extends keyof Events>(name: Name, listener: Listener<Events[Name]>): () => void;
  /**
   * Runs every listener of `name`, one after another in the order they were added, and resolves when the last
   * has: a listener that throws stops the rest and the error reaches the caller (so a listener handed a database
   * transaction fails it, and what its cause wrote is rolled back with what the listeners wrote).
   */
  emit<Name extends keyof Events>(name: Name, payload: Events[Name]): Promise<void>;
  /** `emit` without waiting, for callers that cannot: a listener's failure goes to the bus's `onError`. */
  tell<Name extends keyof Events>(name: Name, payload: Events[Name]): void;
}

/**
 * A small typed event bus, in memory and in this process only: what must reach other instances goes through the
 * broadcast, and what must not be lost through the job queue, in the same database transaction as its cause.
 */
export function createEventBus<Events>(options: { onError?: (err: unknown, name: keyof Events) => void } = {}): EventBus<Events> {
  const listeners = new Map<keyof Events, Array<Listener<never>>>();
  const bus: EventBus<Events> = {
    on(name, listener) {
      const list = listeners.get(name) ?? [];
      list.push(listener);
      listeners.set(name, list);
      return () => {
        const index = list.indexOf(listener);
        if (index >= 0) list.splice(index, 1);
      };
    },
    async emit(name, payload) {
      for (const listener of [...(listeners.get(name) ?? [])]) await (listener as Listener<typeof payload>)(payload);
    },
    tell(name, payload) {
      bus.emit(name, payload).catch((err: unknown) => options.onError?.(err, name));
    },
  };
  return bus;
}

/** Adds every listener a module declared. */
export function listen<Events>(bus: EventBus<Events>, listeners: Listeners<Events>): void {
  for (const name of Object.keys(listeners) as Array<keyof Events>) bus.on(name, listeners[name] as Listener<Events[keyof Events]>);
}
