import { Trans, useLingui } from '@lingui/react';
import { useEffect, useState } from 'react';
import type { DesktopPlatform, DesktopPlatformRelease } from '../../../../shared/desktop-releases.js';
import { PLATFORM_NAMES } from '../../../../shared/platforms.js';
import { api } from '../../api';
import { useConfig } from '../config/config-context';
import { useFormat } from '../../i18n/format';

/** The stable release of the operator's app for `platform`, once asked (undefined while asking, null when none is published or the server could not say). */
export function useDesktopRelease(platform: DesktopPlatform): DesktopPlatformRelease | null | undefined {
  const [release, setRelease] = useState<DesktopPlatformRelease | null | undefined>(undefined);
  useEffect(() => {
    const controller = new AbortController();
    api.getDesktopReleases(controller.signal).then(
      (releases) => setRelease(releases.channels.stable[platform] ?? null),
      () => {
        if (!controller.signal.aborted) setRelease(null);
      },
    );
    return () => controller.abort();
  }, [platform]);
  return release;
}

/**
 * The operator's own desktop app for this platform, first among the apps when a release is published: its
 * version, and per installer the size and SHA-256 to check the download against. Nothing when none is.
 */
export function OwnDesktopApp({ platform }: { platform: DesktopPlatform }) {
  const { _ } = useLingui();
  const format = useFormat();
  const { brandName } = useConfig();
  const release = useDesktopRelease(platform);
  if (!release || release.installers.length === 0) return null;
  const values = { brand: brandName, platform: PLATFORM_NAMES[platform] };
  return (
    <section aria-labelledby="own-app-title" className="mb-6 rounded-2xl bg-indigo-50 p-6 ring-1 ring-indigo-200" data-testid="own-desktop-app">
      <h3 id="own-app-title" className="text-lg font-semibold text-slate-900">
        {_('download.ownApp.title', values)}
      </h3>
      <p className="mt-2 leading-7 text-slate-700">
        {_('download.ownApp.text', values)} <span className="font-medium">{_('download.ownApp.version', { version: release.version })}</span>
      </p>
      <ul className="mt-4 space-y-4">
        {release.installers.map((installer, index) => (
          <li key={installer.name} className="flex flex-col gap-2 sm:flex-row sm:items-start sm:gap-4">
            <a
              href={installer.url}
              download
              className={`inline-flex shrink-0 items-center justify-center rounded-lg px-4 py-2 text-sm font-semibold ${index === 0 ? 'bg-indigo-600 text-white hover:bg-indigo-700' : 'border border-slate-300 bg-white text-indigo-700 hover:bg-indigo-50'}`}
            >
              {/* The file type left to right in every language (".AppImage", not "AppImage." in Persian). */}
              <span>
                <Trans id="download.ownApp.download" values={{ kind: `.${installer.kind}` }} components={{ 0: <bdi dir="ltr" /> }} />
              </span>
            </a>
            <dl className="min-w-0 text-sm text-slate-700">
              <div className="flex gap-2">
                <dt className="font-medium">{_('download.ownApp.file')}</dt>
                <dd className="break-all" dir="ltr">
                  {installer.name} · {format.fileSize(installer.size)}
                </dd>
              </div>
              <div className="flex gap-2">
                <dt className="font-medium">SHA-256</dt>
                <dd className="font-mono text-xs break-all" dir="ltr">
                  {installer.sha256}
                </dd>
              </div>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}
