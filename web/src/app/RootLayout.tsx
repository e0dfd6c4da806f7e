import { Outlet } from 'react-router-dom';
import { Footer } from '../components/Footer';
import { Header } from '../components/Header';
import { AuthProvider } from '../features/auth/AuthProvider';
import { ScrollToTop } from './ScrollToTop';
import { useDocumentTitle } from './useDocumentTitle';

/** Header, main content and footer around every route, inside the session. */
export function RootLayout() {
  return (
    <AuthProvider>
      <LayoutFrame />
    </AuthProvider>
  );
}

function LayoutFrame() {
  useDocumentTitle();
  return (
    <div className="flex min-h-screen flex-col">
      <ScrollToTop />
      <Header />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
