/**
 * The listeners of one instance's broadcast, whatever carries messages between instances: a message
 * runs its channel's listeners here, and a resume (the carrier is back after a gap) runs the others.
 */
export function createBroadcastListeners() {
  const listeners = new Map<string, Array<(message: string) => void>>();
  const resumeListeners: Array<() => void> = [];
  return {
    deliver(channel: string, message: string) {
      for (const listener of listeners.get(channel) ?? []) listener(message);
    },
    has: (channel: string) => listeners.has(channel),
    subscribe(channel: string, listener: (message: string) => void) {
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener]);
    },
    onResume(listener: () => void) {
      resumeListeners.push(listener);
    },
    resume() {
      for (const listener of resumeListeners) listener();
    },
  };
}
