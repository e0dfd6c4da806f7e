import type { ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import { adminTabAt } from '../../../shared/admin-tabs.js';
import { ErrorBoundary } from '../components/ErrorBoundary';

/** The page a path shows: every admin tab is one page (moving between tabs keeps it, and the focus on its tab bar). */
const pageKey = (pathname: string) => (adminTabAt(pathname) ? '/admin' : pathname);

/** Keeps a page's render error inside the layout (header and footer stay), and forgets it on navigation to another page. */
export function PageErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <ErrorBoundary key={pageKey(pathname)}>{children}</ErrorBoundary>;
}
