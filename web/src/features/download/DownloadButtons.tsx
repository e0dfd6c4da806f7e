import { useLingui } from '@lingui/react';
import { usePageText, type DownloadLink } from './platforms';
import { ExternalLinkIcon } from '../../components/content/content-icons';

/** The platform's official Hiddify download places, each opening in a new tab. */
export function DownloadButtons({ downloads }: { downloads: readonly DownloadLink[] }) {
  const { _ } = useLingui();
  const text = usePageText();
  return (
    <div>
      <ul className="flex flex-col items-stretch justify-center gap-3 sm:flex-row sm:flex-wrap">
        {downloads.map(({ label, detail, href }, index) => (
          <li key={text(label)}>
            <a
              href={href}
              target="_blank"
              rel="noopener noreferrer"
              className={`flex items-center justify-center gap-3 rounded-xl px-5 py-3 text-start shadow ${
                index === 0 ? 'bg-white text-indigo-950 hover:bg-indigo-50' : 'text-white ring-1 ring-white/40 hover:bg-white/10'
              }`}
            >
              <span>
                <span className="block font-semibold">{text(label)}</span>
                <span className={`block text-sm ${index === 0 ? 'text-slate-600' : 'text-indigo-100'}`}>{text(detail)}</span>
              </span>
              <ExternalLinkIcon className="size-5 shrink-0 rtl:-scale-x-100" />
              <span className="sr-only">{_('download.newTab')}</span>
            </a>
          </li>
        ))}
      </ul>
      <p className="mt-4 text-sm text-indigo-100">{_('download.buttons.note')}</p>
    </div>
  );
}
