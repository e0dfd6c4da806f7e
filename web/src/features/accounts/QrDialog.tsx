import { useLingui } from '@lingui/react';
import { useId } from 'react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { useIsolate } from '../../i18n/bidi';
import { QrCode } from '../setup/QrCode';
import { Modal } from './Modal';

/** The account's subscription link as a QR code, for scanning with a phone's VPN app. */
export function QrDialog({ account, onClose }: { account: VpnAccount; onClose: () => void }) {
  const { _ } = useLingui();
  const titleId = useId();
  const isolated = useIsolate();
  if (!account.combinedUrl) return null;
  return (
    <Modal title={_('account.qr.title', { username: isolated(account.username) })} titleId={titleId} onClose={onClose}>
      <div className="flex flex-col items-center gap-4 text-center">
        <QrCode value={account.combinedUrl} label={_('account.qr.label', { username: account.username })} />
        <p className="text-sm leading-6 text-slate-600">{_('account.qr.help')}</p>
      </div>
    </Modal>
  );
}
