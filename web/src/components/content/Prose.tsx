import type { ReactNode } from 'react';

/**
 * Long-form text (legal pages, guides): readable line length and spacing for the plain elements
 * inside it (h2, h3, p, ul, ol, a) without a typography plugin.
 */
export function Prose({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 text-slate-700 sm:px-6 sm:py-16 [&_a]:font-medium [&_a]:text-indigo-700 [&_a]:underline [&_h2]:mt-10 [&_h2]:text-2xl [&_h2]:font-bold [&_h2]:text-slate-900 [&_h3]:mt-6 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:text-slate-900 [&_li]:mt-2 [&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:ps-6 [&_p]:mt-4 [&_p]:leading-7 [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:ps-6">
      {children}
    </div>
  );
}
