import { useLingui } from '@lingui/react';
import { ExternalLinkIcon } from '../../components/content/content-icons';
import type { ClientApp } from './client-apps';
import { usePageText } from './platforms';

/** The recommended client apps for one platform, each with its official download links. */
export function RecommendedApps({ apps }: { apps: readonly ClientApp[] }) {
  const { _ } = useLingui();
  const text = usePageText();
  return (
    <ul className="grid gap-6 sm:grid-cols-2">
      {apps.map((app) => (
        <li key={app.name} className="flex flex-col rounded-2xl bg-white p-6 shadow-sm ring-1 ring-slate-200">
          <h3 className="text-lg font-semibold text-slate-900">{app.name}</h3>
          <p className="mt-2 flex-1 leading-7 text-slate-700">{_(app.descriptionId)}</p>
          <ul className="mt-4 flex flex-wrap gap-3">
            {app.links.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="inline-flex items-center gap-2 rounded-lg border border-slate-300 px-3 py-2 text-sm font-semibold text-indigo-700 hover:bg-indigo-50"
                >
                  {text(link.label)}
                  <ExternalLinkIcon className="size-4 shrink-0 rtl:-scale-x-100" />
                  <span className="sr-only">{_('download.apps.linkNewTab', { app: app.name })}</span>
                </a>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}
