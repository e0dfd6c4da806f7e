import { useLingui } from '@lingui/react';
import { useFormat } from '../../i18n/format';
import { ACCOUNT_UI_MESSAGES } from '../accounts/messages';
import { BUTTON } from '../accounts/button-styles';
import { describeConfigLink } from './config-link-label';
import { CopyButton } from './CopyButton';

/** Per-configuration links, for apps that take a single configuration rather than a subscription. */
export function ConfigLinks({ links }: { links: readonly string[] }) {
  const { _ } = useLingui();
  const format = useFormat();
  if (links.length === 0) return null;

  return (
    <details className="group rounded-xl ring-1 ring-slate-200">
      <summary className="cursor-pointer rounded-xl px-4 py-3 text-sm font-semibold text-slate-900 hover:bg-slate-50">
        {_('account.configLinks.summary', { count: format.number(links.length) })}
      </summary>
      <div className="border-t border-slate-200 px-4 py-3">
        <p className="text-sm text-slate-600">{_('account.configLinks.help')}</p>
        <ul className="mt-3 space-y-3">
          {links.map((link, index) => {
            const label = describeConfigLink(link, index, _, format);
            return (
              <li key={`${index}-${link}`} className="flex flex-col gap-2 sm:flex-row sm:items-center">
                <div className="min-w-0 flex-1">
                  <p className="text-sm font-medium break-words text-slate-800">{label}</p>
                  <code dir="ltr" className="block truncate font-mono text-xs text-slate-500" title={link}>
                    {link}
                  </code>
                </div>
                <CopyButton
                  text={link}
                  successMessage={_(ACCOUNT_UI_MESSAGES.linkCopied)}
                  label={_('account.configLinks.copy')}
                  srDetail={label}
                  className={BUTTON.smallSecondary}
                />
              </li>
            );
          })}
        </ul>
      </div>
    </details>
  );
}
