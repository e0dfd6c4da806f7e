import { useLingui } from '@lingui/react';
import { useId, useState } from 'react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { platformFromUserAgent } from '../../../../shared/deep-links.js';
import { usePlatform } from '../../platform/platform-context';
import { BUTTON } from '../accounts/button-styles';
import { Modal } from '../accounts/Modal';
import { useConfig } from '../config/config-context';
import { AccountDetails } from './AccountDetails';
import { ConfigLinks } from './ConfigLinks';
import { DEFAULT_SETUP_PLATFORM, SETUP_PLATFORMS, type SetupPlatform } from './platform-guides';
import { PlatformGuidePanel } from './PlatformGuidePanel';
import { PlatformTabs } from './PlatformTabs';
import { SetupCarousel } from './SetupCarousel';
import { SubscriptionLinkBox } from './SubscriptionLinkBox';
import { VideoGuidePanel } from './VideoGuidePanel';

/** '🎉 Your VPN Account is Ready!': everything a customer needs to get an account onto a device. */
export function AccountSetupDialog({ account, onClose }: { account: VpnAccount; onClose: () => void }) {
  const { _ } = useLingui();
  const titleId = useId();
  const tabsId = useId();
  const { brandName } = useConfig();
  const app = usePlatform();
  const [platform, setPlatform] = useState<SetupPlatform>(() =>
    pickInitialTab(app.kind === 'desktop' ? app.os : typeof navigator === 'undefined' ? null : platformFromUserAgent(navigator.userAgent)),
  );
  const url = account.combinedUrl;

  return (
    <Modal
      size="large"
      titleId={titleId}
      onClose={onClose}
      title={
        <>
          <span aria-hidden="true">🎉</span> {_('account.setup.title')}
        </>
      }
    >
      <div className="space-y-6">
        <AccountDetails account={account} />
        {url ? (
          <SubscriptionLinkBox url={url} />
        ) : (
          <p className="rounded-xl bg-amber-50 p-4 text-sm text-amber-900 ring-1 ring-amber-200">{_('account.setup.linkPreparing')}</p>
        )}
        <section aria-labelledby={`${tabsId}-heading`}>
          <h3 id={`${tabsId}-heading`} className="mb-2 text-sm font-semibold text-slate-900">
            {_('account.setup.deviceHeading')}
          </h3>
          <PlatformTabs selected={platform} onSelect={setPlatform} idPrefix={tabsId} />
          <PlatformGuidePanel platform={platform} idPrefix={tabsId} url={url} profileName={brandName} />
        </section>
        <ConfigLinks links={account.links} />
        <SetupCarousel />
        <VideoGuidePanel />
        <div className="flex justify-end">
          <button type="button" onClick={onClose} className={`${BUTTON.primary} w-full sm:w-auto`}>
            {_('account.setup.done')}
          </button>
        </div>
      </div>
    </Modal>
  );
}

/** The desktop app opens on its own computer's tab, the website on the visitor's (from the browser); else the default one. */
function pickInitialTab(os: string | null): SetupPlatform {
  return SETUP_PLATFORMS.find((platform) => platform === os) ?? DEFAULT_SETUP_PLATFORM;
}
