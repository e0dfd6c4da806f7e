import { useLingui } from '@lingui/react';
import { Link } from 'react-router-dom';
import { deepLinksFor } from '../../../../shared/deep-links.js';
import { DownloadIcon } from '../../components/content/content-icons';
import type { SetupPlatform } from './platform-guides';

interface OpenInClientLinksProps {
  platform: SetupPlatform;
  platformLabel: string;
  /** The subscription link; without it there is nothing to open yet. */
  url: string | null;
  profileName: string;
}

/** "Open in <client>" deep links for the platform, recommended client first, and the download page. */
export function OpenInClientLinks({ platform, platformLabel, url, profileName }: OpenInClientLinksProps) {
  const { _ } = useLingui();
  return (
    <div className="space-y-3">
      {url ? (
        <ul className="flex flex-wrap gap-2" aria-label={_('account.clients.appsFor', { platform: platformLabel })}>
          {deepLinksFor(platform, url, profileName).map((link, index) => (
            <li key={link.clientId}>
              <a
                href={link.href}
                className={`inline-flex items-center rounded-lg px-3 py-2 text-sm font-semibold shadow-sm ${
                  index === 0 ? 'bg-indigo-600 text-white hover:bg-indigo-500' : 'bg-white text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50'
                }`}
              >
                {_('account.clients.openIn', { client: link.clientName })}
              </a>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">{_('account.clients.preparingWeb')}</p>
      )}
      <Link to={`/download/${platform}`} className="inline-flex items-center gap-2 text-sm font-semibold text-indigo-700 hover:text-indigo-600">
        <DownloadIcon className="size-4" />
        {_('account.clients.download', { platform: platformLabel })}
      </Link>
    </div>
  );
}
