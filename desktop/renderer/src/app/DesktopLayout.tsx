import { useEffect, type ReactNode } from 'react';
import { useConfig } from '../../../../web/src/features/config/config-context';
import { DesktopHeader } from './DesktopHeader';
import { UpdateBanner } from './UpdateBanner';

/** The app window: a small header above the screen; no footer, no marketing pages. */
export function DesktopLayout({ children }: { children: ReactNode }) {
  const { brandName } = useConfig();
  useEffect(() => {
    document.title = brandName;
  }, [brandName]);

  return (
    <div className="flex min-h-screen flex-col">
      <DesktopHeader />
      <UpdateBanner />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
    </div>
  );
}
