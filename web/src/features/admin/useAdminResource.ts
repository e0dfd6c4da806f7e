import { useEffect, useState, type Dispatch, type SetStateAction } from 'react';

export type LoadState = 'loading' | 'loaded' | 'failed';

export interface AdminResource<T> {
  data: T | null;
  setData: Dispatch<SetStateAction<T | null>>;
  loadState: LoadState;
}

/**
 * Loads a tab's data on mount and again whenever `refreshKey` changes (the Refresh button).
 * `load` must be stable (a module-level function), or it reloads on every render.
 */
export function useAdminResource<T>(load: (signal: AbortSignal) => Promise<T>, refreshKey: number): AdminResource<T> {
  const [data, setData] = useState<T | null>(null);
  const [loadState, setLoadState] = useState<LoadState>('loading');

  useEffect(() => {
    const controller = new AbortController();
    setLoadState('loading');
    load(controller.signal)
      .then((value) => {
        setData(value);
        setLoadState('loaded');
      })
      .catch(() => {
        if (!controller.signal.aborted) setLoadState('failed');
      });
    return () => controller.abort();
  }, [load, refreshKey]);

  return { data, setData, loadState };
}
