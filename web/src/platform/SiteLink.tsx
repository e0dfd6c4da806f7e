import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { usePlatform } from './platform-context';

interface SiteLinkProps {
  /** A page of the website, e.g. `/help`. */
  to: string;
  className?: string;
  children: ReactNode;
}

/**
 * A link to a page of the website. On the web it navigates in the app; the desktop app has no such
 * page, so there it opens the website in the system browser.
 */
export function SiteLink({ to, className, children }: SiteLinkProps) {
  const platform = usePlatform();
  if (platform.kind === 'web') {
    return (
      <Link to={to} className={className}>
        {children}
      </Link>
    );
  }
  return (
    <a
      href={platform.websiteUrl(to)}
      onClick={(event) => {
        event.preventDefault();
        void platform.openWebsite(to);
      }}
      className={className}
    >
      {children}
    </a>
  );
}
