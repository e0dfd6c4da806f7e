import { useLingui } from '@lingui/react';
import { useEffect, useState } from 'react';
import { deepLinkFor, VPN_CLIENT_APPS, type DeepLink } from '../../../../shared/deep-links.js';
import { DownloadIcon } from '../../components/content/content-icons';
import type { DesktopPlatform } from '../../platform/platform';
import { SiteLink } from '../../platform/SiteLink';
import { useToast } from '../toast/toast-context';
import type { SetupPlatform } from './platform-guides';

interface DetectedClientButtonsProps {
  desktop: DesktopPlatform;
  platform: SetupPlatform;
  platformLabel: string;
  /** The subscription link; without it there is nothing to open yet. */
  url: string | null;
  profileName: string;
}

const clientButtonClass = (first: boolean) =>
  `inline-flex items-center rounded-lg px-3 py-2 text-sm font-semibold shadow-sm ${
    first ? 'bg-indigo-600 text-white hover:bg-indigo-500' : 'bg-white text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50'
  }`;

/**
 * The desktop app's "Open in <client>": one button per VPN client installed on this computer, each
 * handing the client its own deep link through the app (never a raw link the page would follow).
 * Other devices, or no client found: copy the link or scan the QR code, and the website's download page.
 */
export function DetectedClientButtons({ desktop, platform, platformLabel, url, profileName }: DetectedClientButtonsProps) {
  const { _ } = useLingui();
  const thisComputer = desktop.os === null || desktop.os === platform;
  return (
    <div className="space-y-3">
      {!url ? (
        <p className="text-sm text-slate-600">{_('account.clients.preparingDesktop')}</p>
      ) : thisComputer ? (
        <InstalledClients desktop={desktop} url={url} profileName={profileName} />
      ) : (
        <p className="text-sm text-slate-600">{_('account.clients.otherDevice', { platform: platformLabel })}</p>
      )}
      <SiteLink to={`/download/${platform}`} className="inline-flex items-center gap-2 text-sm font-semibold text-indigo-700 hover:text-indigo-600">
        <DownloadIcon className="size-4" />
        {_('account.clients.download', { platform: platformLabel })}
      </SiteLink>
    </div>
  );
}

function InstalledClients({ desktop, url, profileName }: { desktop: DesktopPlatform; url: string; profileName: string }) {
  const { _ } = useLingui();
  const toast = useToast();
  const [detected, setDetected] = useState<readonly string[] | null>(null);

  useEffect(() => {
    let active = true;
    void desktop
      .detectClients()
      .catch(() => [])
      .then((ids) => {
        if (active) setDetected(ids);
      });
    return () => {
      active = false;
    };
  }, [desktop]);

  if (detected === null) {
    return (
      <p role="status" className="text-sm text-slate-600">
        {_('account.clients.looking')}
      </p>
    );
  }

  const links = VPN_CLIENT_APPS.filter((app) => detected.includes(app.id)).map((app) => deepLinkFor(app, url, profileName));
  if (links.length === 0) {
    return <p className="text-sm text-slate-600">{_('account.clients.noneFound')}</p>;
  }

  async function open(link: DeepLink) {
    const opened = await desktop.openDeepLink(link.href).catch(() => false);
    if (!opened) toast.error(_('account.clients.openFailed', { client: link.clientName }));
  }

  return (
    <ul className="flex flex-wrap gap-2" aria-label={_('account.clients.installedLabel')}>
      {links.map((link, index) => (
        <li key={link.clientId}>
          <button type="button" onClick={() => void open(link)} className={clientButtonClass(index === 0)}>
            {_('account.clients.openIn', { client: link.clientName })}
          </button>
        </li>
      ))}
    </ul>
  );
}
