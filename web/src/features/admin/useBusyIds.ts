import { useCallback, useState } from 'react';

/** Which rows have a request in flight, so their buttons can be disabled meanwhile. */
export function useBusyIds() {
  const [busyIds, setBusyIds] = useState<ReadonlySet<string>>(new Set());

  const runBusy = useCallback(async (id: string, task: () => Promise<void>) => {
    setBusyIds((ids) => new Set(ids).add(id));
    try {
      await task();
    } finally {
      setBusyIds((ids) => {
        const next = new Set(ids);
        next.delete(id);
        return next;
      });
    }
  }, []);

  return { isBusy: (id: string) => busyIds.has(id), runBusy };
}
