import { useLingui } from '@lingui/react';
import { useCallback, useEffect, useId, useState } from 'react';
import type { TelegramLinkStatus, TelegramLinkUrl } from '../../../../shared/telegram.js';
import { telegramLinkApi } from '../../api/telegram-link-endpoints';
import { useIsolate } from '../../i18n/bidi';
import { BUTTON } from '../accounts/button-styles';
import { Modal } from '../accounts/Modal';
import { QrCode } from '../setup/QrCode';
import { useToast } from '../toast/toast-context';
import { TelegramPreferences } from './TelegramPreferences';

/** How often the open dialog asks whether the customer pressed Start in the bot yet. */
const LINK_POLL_MS = 3000;

const linkedName = (linked: NonNullable<TelegramLinkStatus['linked']>) => (linked.username ? `@${linked.username}` : (linked.firstName ?? 'Telegram'));

/**
 * The dashboard's "Connect Telegram": shown only when the store runs a bot. It makes a one-time link to the bot
 * (a button, and a QR code for a phone), notices when the customer pressed Start there, and can disconnect; once
 * linked, it offers the customer's choices of what goes to Telegram (TelegramPreferences).
 */
export function TelegramLinkButton() {
  const { _ } = useLingui();
  const toast = useToast();
  const isolated = useIsolate();
  const titleId = useId();
  const [status, setStatus] = useState<TelegramLinkStatus | null>(null);
  const [open, setOpen] = useState(false);
  const [link, setLink] = useState<TelegramLinkUrl | null>(null);
  const [busy, setBusy] = useState(false);

  const refresh = useCallback(async (signal?: AbortSignal) => {
    const next = await telegramLinkApi.status(signal).catch(() => null);
    if (next && !signal?.aborted) setStatus(next);
    return next;
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void refresh(controller.signal);
    return () => controller.abort();
  }, [refresh]);

  // While the dialog waits for Start in the bot, the link is noticed without a reload.
  useEffect(() => {
    if (!open || !link || status?.linked) return;
    const timer = window.setInterval(() => void refresh(), LINK_POLL_MS);
    return () => window.clearInterval(timer);
  }, [open, link, status?.linked, refresh]);

  if (!status?.bot) return null;

  async function connect() {
    setOpen(true);
    setBusy(true);
    try {
      setLink(await telegramLinkApi.createLink());
    } catch {
      setOpen(false);
      toast.error(_('account.telegram.failed'));
    } finally {
      setBusy(false);
    }
  }

  async function disconnect() {
    setBusy(true);
    try {
      await telegramLinkApi.unlink();
      await refresh();
      setLink(null);
      toast.info(_('account.telegram.unlinked'));
    } catch {
      toast.error(_('account.telegram.failed'));
    } finally {
      setBusy(false);
    }
  }

  const close = () => {
    setOpen(false);
    setLink(null);
  };
  const linked = status.linked;

  return (
    <>
      <button type="button" className={BUTTON.secondary} onClick={() => (linked ? setOpen(true) : void connect())} disabled={busy && !open}>
        {linked ? _('account.telegram.connected', { name: isolated(linkedName(linked)) }) : _('account.telegram.connect')}
      </button>
      {open && (
        <Modal title={_('account.telegram.title')} titleId={titleId} onClose={close} size="small">
          {linked ? (
            <div className="space-y-4 text-sm leading-6 text-slate-600">
              <p role="status">{_('account.telegram.linkedHelp', { name: isolated(linkedName(linked)), bot: `@${status.bot.username}` })}</p>
              <div className="flex flex-wrap gap-2">
                <a href={`https://t.me/${status.bot.username}`} target="_blank" rel="noreferrer" className={BUTTON.primary}>
                  {_('account.telegram.open')}
                </a>
                <button type="button" className={BUTTON.secondary} onClick={() => void disconnect()} disabled={busy}>
                  {_('account.telegram.unlink')}
                </button>
              </div>
              {status.preferences && <TelegramPreferences preferences={status.preferences} onSaved={setStatus} />}
            </div>
          ) : link ? (
            <div className="flex flex-col items-center gap-4 text-center text-sm leading-6 text-slate-600">
              <p>{_('account.telegram.help', { bot: `@${status.bot.username}` })}</p>
              <a href={link.url} target="_blank" rel="noreferrer" className={BUTTON.primary} data-autofocus>
                {_('account.telegram.open')}
              </a>
              <QrCode value={link.url} label={_('account.telegram.qrLabel')} />
              <p>{_('account.telegram.scan')}</p>
            </div>
          ) : (
            <p role="status" className="text-sm text-slate-600">
              {_('account.telegram.making')}
            </p>
          )}
        </Modal>
      )}
    </>
  );
}
