import { useLingui } from '@lingui/react';
import { usePlatform } from '../../platform/platform-context';
import { DetectedClientButtons } from './DetectedClientButtons';
import { OpenInClientLinks } from './OpenInClientLinks';
import { PLATFORM_GUIDES, type SetupPlatform } from './platform-guides';

interface PlatformGuidePanelProps {
  platform: SetupPlatform;
  idPrefix: string;
  url: string | null;
  profileName: string;
}

/** The selected platform's tab panel: numbered how-to steps, then the app buttons. */
export function PlatformGuidePanel({ platform, idPrefix, url, profileName }: PlatformGuidePanelProps) {
  const { _ } = useLingui();
  const guide = PLATFORM_GUIDES[platform];
  const app = usePlatform();
  return (
    <div role="tabpanel" id={`${idPrefix}-panel`} aria-labelledby={`${idPrefix}-tab-${platform}`} tabIndex={0} className="space-y-4 pt-4">
      <ol className="space-y-3">
        {guide.stepIds.map((step, index) => (
          <li key={step} className="flex gap-3 text-sm leading-6 text-slate-700">
            <span
              aria-hidden="true"
              className="inline-flex size-6 shrink-0 items-center justify-center rounded-full bg-indigo-600 text-xs font-semibold text-white"
            >
              {index + 1}
            </span>
            <span>{_(step)}</span>
          </li>
        ))}
      </ol>
      {app.kind === 'desktop' ? (
        <DetectedClientButtons desktop={app} platform={platform} platformLabel={guide.label} url={url} profileName={profileName} />
      ) : (
        <OpenInClientLinks platform={platform} platformLabel={guide.label} url={url} profileName={profileName} />
      )}
    </div>
  );
}
