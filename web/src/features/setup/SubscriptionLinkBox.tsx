import { useLingui } from '@lingui/react';
import { useId, useState } from 'react';
import { BUTTON } from '../accounts/button-styles';
import { ACCOUNT_UI_MESSAGES } from '../accounts/messages';
import { CopyButton } from './CopyButton';
import { QrCode } from './QrCode';

/**
 * The subscription link: shortened, copyable, and as a QR code that can be hidden. The link reads left
 * to right on every page (`dir="ltr"`: on a right-to-left page "https://…/sub/…" would otherwise be
 * reordered around its digits and slashes) on one line, cut at 45 characters (or the box's width) with
 * the ellipsis on that same line (CSS `text-overflow`): a '…' appended to the text would wrap onto a line
 * of its own in a narrow box.
 */
export function SubscriptionLinkBox({ url }: { url: string }) {
  const { _ } = useLingui();
  const qrId = useId();
  const [showQr, setShowQr] = useState(true);

  return (
    <div className="rounded-xl bg-slate-50 p-4 ring-1 ring-slate-200">
      <h3 className="text-sm font-semibold text-slate-900">{_('account.link.heading')}</h3>
      <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:items-center">
        <code dir="ltr" className="min-w-0 flex-1 rounded-lg bg-white px-3 py-2 font-mono text-xs text-slate-700 ring-1 ring-slate-200" title={url}>
          <span className="block max-w-[45ch] truncate">{url}</span>
        </code>
        <div className="flex gap-2">
          <CopyButton
            text={url}
            successMessage={_(ACCOUNT_UI_MESSAGES.subscriptionCopied)}
            label={_('account.link.copy')}
            className={`${BUTTON.primary} flex-1 sm:flex-none`}
          />
          <button
            type="button"
            aria-expanded={showQr}
            aria-controls={qrId}
            onClick={() => setShowQr((shown) => !shown)}
            className={`${BUTTON.secondary} flex-1 sm:flex-none`}
          >
            {_(showQr ? 'account.link.hideQr' : 'account.link.showQr')}
          </button>
        </div>
      </div>
      <div id={qrId} hidden={!showQr} className="mt-4">
        {showQr && (
          <div className="flex flex-col items-center gap-3 sm:flex-row sm:items-center">
            <QrCode value={url} label={_('account.link.qrLabel')} />
            <p className="text-sm leading-6 text-slate-600">{_('account.link.qrHelp')}</p>
          </div>
        )}
      </div>
    </div>
  );
}
