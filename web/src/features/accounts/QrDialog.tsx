import { useId } from 'react';
import type { VpnAccount } from '../../../../shared/accounts.js';
import { QrCode } from '../setup/QrCode';
import { Modal } from './Modal';

/** The account's subscription link as a QR code, for scanning with a phone's VPN app. */
export function QrDialog({ account, onClose }: { account: VpnAccount; onClose: () => void }) {
  const titleId = useId();
  if (!account.combinedUrl) return null;
  return (
    <Modal title={`QR code for ${account.username}`} titleId={titleId} onClose={onClose}>
      <div className="flex flex-col items-center gap-4 text-center">
        <QrCode value={account.combinedUrl} label={`QR code of the subscription link for ${account.username}`} />
        <p className="text-sm leading-6 text-slate-600">
          Open your VPN app, choose to add a profile from a QR code, and point the camera at this code.
        </p>
      </div>
    </Modal>
  );
}
