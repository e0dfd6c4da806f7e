import { useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { useConfig } from '../features/config/config-context';
import { BrandLink } from './header/BrandLink';
import { LanguageSwitcher } from './LanguageSwitcher';
import { DESKTOP_DOWNLOAD_LINKS, FEATURE_LINKS, LEGAL_LINKS, MOBILE_DOWNLOAD_LINKS, SUPPORT_LINKS, TRUST_LINKS, navLabel, type NavLink } from './nav-links';

/** Each group's heading is a message id (common catalogue). */
const LINK_GROUPS: { titleId: string; links: readonly NavLink[] }[] = [
  { titleId: 'footer.features', links: FEATURE_LINKS },
  { titleId: 'footer.download', links: [...DESKTOP_DOWNLOAD_LINKS, ...MOBILE_DOWNLOAD_LINKS] },
  { titleId: 'footer.whyTrustUs', links: TRUST_LINKS },
  { titleId: 'footer.legal', links: LEGAL_LINKS },
  { titleId: 'footer.support', links: SUPPORT_LINKS },
];

export function Footer() {
  const { brandName } = useConfig();
  const { _ } = useLingui();
  const year = new Date().getFullYear();

  return (
    <footer className="bg-slate-950 text-slate-400">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
        <div className="grid gap-10 lg:grid-cols-[1.2fr_3fr]">
          <div>
            <BrandLink brandName={brandName} className="w-fit text-white" />
            <p className="mt-4 max-w-xs text-sm leading-6">{_('footer.tagline')}</p>
          </div>
          <div className="grid grid-cols-2 gap-8 sm:grid-cols-3 lg:grid-cols-5">
            {LINK_GROUPS.map((group) => (
              <nav key={group.titleId} aria-label={_('footer.navLabel', { group: _(group.titleId) })}>
                <h2 className="text-sm font-semibold text-white">{_(group.titleId)}</h2>
                <ul className="mt-3 space-y-2">
                  {group.links.map((link) => (
                    <li key={link.to} data-claim={link.claim}>
                      <Link to={link.to} className="rounded text-sm hover:text-white">
                        {navLabel(_, link)}
                      </Link>
                    </li>
                  ))}
                </ul>
              </nav>
            ))}
          </div>
        </div>
        <div className="mt-12 flex flex-wrap items-center justify-between gap-4 border-t border-slate-800 pt-6 text-sm">
          <p>
            © {year} {brandName}
          </p>
          <LanguageSwitcher variant="footer" />
        </div>
      </div>
    </footer>
  );
}
