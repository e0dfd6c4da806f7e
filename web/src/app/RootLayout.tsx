import type { ReactNode } from 'react';
import { Footer } from '../components/Footer';
import { Header } from '../components/Header';
import { LanguageOfferGate } from '../components/LanguageOfferGate';
import { ScrollToTop } from './ScrollToTop';
import { useDocumentTitle } from './useDocumentTitle';

/** Header, main content and footer around every page. */
export function RootLayout({ children }: { children: ReactNode }) {
  useDocumentTitle();
  return (
    <div className="flex min-h-screen flex-col">
      <ScrollToTop />
      <LanguageOfferGate />
      <Header />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <Footer />
    </div>
  );
}
