import { Link } from 'react-router-dom';
import { useConfig } from '../features/config/config-context';
import { BrandLink } from './header/BrandLink';
import {
  DESKTOP_DOWNLOAD_LINKS,
  FEATURE_LINKS,
  LEGAL_LINKS,
  MOBILE_DOWNLOAD_LINKS,
  SUPPORT_LINKS,
  TRUST_LINKS,
  type NavLink,
} from './nav-links';

const LINK_GROUPS: { title: string; links: readonly NavLink[] }[] = [
  { title: 'Features', links: FEATURE_LINKS },
  { title: 'Download', links: [...DESKTOP_DOWNLOAD_LINKS, ...MOBILE_DOWNLOAD_LINKS] },
  { title: 'Why Trust Us', links: TRUST_LINKS },
  { title: 'Legal', links: LEGAL_LINKS },
  { title: 'Support', links: SUPPORT_LINKS },
];

export function Footer() {
  const { brandName } = useConfig();
  const year = new Date().getFullYear();

  return (
    <footer className="bg-slate-950 text-slate-400">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
        <div className="grid gap-10 lg:grid-cols-[1.2fr_3fr]">
          <div>
            <BrandLink brandName={brandName} className="w-fit text-white" />
            <p className="mt-4 max-w-xs text-sm leading-6">
              We cherish your privacy and never sell your data.
            </p>
          </div>
          <div className="grid grid-cols-2 gap-8 sm:grid-cols-3 lg:grid-cols-5">
            {LINK_GROUPS.map((group) => (
              <nav key={group.title} aria-label={`Footer: ${group.title}`}>
                <h2 className="text-sm font-semibold text-white">{group.title}</h2>
                <ul className="mt-3 space-y-2">
                  {group.links.map((link) => (
                    <li key={link.to} data-claim={link.claim}>
                      <Link to={link.to} className="rounded text-sm hover:text-white">
                        {link.label}
                      </Link>
                    </li>
                  ))}
                </ul>
              </nav>
            ))}
          </div>
        </div>
        <p className="mt-12 border-t border-slate-800 pt-6 text-sm">
          © {year} {brandName}
        </p>
      </div>
    </footer>
  );
}
