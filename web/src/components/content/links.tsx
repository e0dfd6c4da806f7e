import { useLingui } from '@lingui/react';
import type { ReactNode } from 'react';

/** Inline links in body copy: underlined so they stand out from text by more than colour. */
export const TEXT_LINK_CLASS =
  'font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

/** A solid call-to-action link on a light background. */
export const BUTTON_LINK_CLASS =
  'inline-block rounded-lg bg-indigo-600 px-5 py-3 font-semibold text-white shadow-sm hover:bg-indigo-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600';

interface ExternalLinkProps {
  href: string;
  children: ReactNode;
  className?: string;
}

/** A link to another site: opens in a new tab and says so to screen-reader users. */
export function ExternalLink({ href, children, className = TEXT_LINK_CLASS }: ExternalLinkProps) {
  const { _ } = useLingui();
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
      <span className="sr-only"> {_('link.newTab')}</span>
    </a>
  );
}

interface EmailLinkProps {
  email: string;
  subject?: string;
  className?: string;
}

/**
 * A mailto link that wraps on narrow screens instead of pushing the page sideways, and reads left to
 * right inside a right-to-left sentence (`dir` isolates it: '1st@example.com' keeps its digits first).
 */
export function EmailLink({ email, subject, className = TEXT_LINK_CLASS }: EmailLinkProps) {
  const href = subject ? `mailto:${email}?subject=${encodeURIComponent(subject)}` : `mailto:${email}`;
  return (
    <a href={href} dir="ltr" className={[className, 'break-words'].filter(Boolean).join(' ')}>
      {email}
    </a>
  );
}
