import { useLingui } from '@lingui/react';
import { useEffect, useState } from 'react';
import { useDesktopPlatform } from './use-desktop-platform';

/**
 * "Restart to update", once an update of the app has been downloaded in the background (main's
 * app-updates.ts). The app never restarts by itself: the user chooses when, or it installs when they quit.
 */
export function UpdateBanner() {
  const { _ } = useLingui();
  const { appUpdates } = useDesktopPlatform();
  const [version, setVersion] = useState<string | null>(null);
  const [restarting, setRestarting] = useState(false);

  useEffect(() => {
    let active = true;
    const unsubscribe = appUpdates.onReady((ready) => setVersion(ready));
    appUpdates.readyVersion().then(
      (ready) => {
        if (active && ready) setVersion(ready);
      },
      () => {},
    );
    return () => {
      active = false;
      unsubscribe();
    };
  }, [appUpdates]);

  if (!version) return null;
  return (
    <div role="status" className="flex flex-wrap items-center justify-center gap-3 bg-indigo-50 px-4 py-2 text-sm text-indigo-900" data-testid="update-banner">
      <span>{_('desktop.update.ready', { version })}</span>
      <button
        type="button"
        disabled={restarting}
        onClick={() => {
          setRestarting(true);
          appUpdates.restart().then(
            (started) => setRestarting(started),
            () => setRestarting(false),
          );
        }}
        className="rounded-lg bg-indigo-600 px-3 py-1.5 font-semibold text-white hover:bg-indigo-700 disabled:opacity-60"
      >
        {_('desktop.update.restart')}
      </button>
    </div>
  );
}
