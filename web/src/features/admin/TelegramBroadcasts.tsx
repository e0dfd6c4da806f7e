import { useLingui } from '@lingui/react';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { LOCALE_NAMES, LOCALES, type Locale } from '../../../../shared/locales.js';
import { BROADCAST_AUDIENCES, BROADCAST_TEXT_MAX, type BroadcastAudience, type TelegramBroadcast } from '../../../../shared/telegram-broadcasts.js';
import { isApiError } from '../../api';
import { adminApi } from '../../api/admin-endpoints';
import { useFormat } from '../../i18n/format';
import { AlertBox } from './AlertBox';
import { buttonClass, rowButtonClass } from './admin-ui';
import { SelectField, TextAreaField } from './form-fields';
import { SettingsSection } from './SettingsSection';

/** How often the list is read again while a broadcast is being sent. */
const PROGRESS_POLL_MS = 3000;

/**
 * 'Broadcasts': one message to everyone who started the bot, or to a segment (active, expired, trial only; one
 * language), with how many it will reach; then each broadcast's progress (sent, blocked, failed), and Cancel while
 * it is being sent. The server sends them through its job queue at Telegram's pace.
 */
export function TelegramBroadcasts() {
  const { _ } = useLingui();
  const format = useFormat();
  const [text, setText] = useState('');
  const [audience, setAudience] = useState<BroadcastAudience>('all');
  const [locale, setLocale] = useState<Locale | ''>('');
  const [recipients, setRecipients] = useState<number | null>(null);
  const [list, setList] = useState<TelegramBroadcast[]>([]);
  const [alert, setAlert] = useState<string | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);

  const reload = useCallback(async (signal?: AbortSignal) => {
    const next = await adminApi.telegram.broadcasts(signal).catch(() => null);
    if (next && !signal?.aborted) setList(next);
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    void reload(controller.signal);
    return () => controller.abort();
  }, [reload]);

  // How many it reaches, asked again whenever the audience changes.
  useEffect(() => {
    const controller = new AbortController();
    setRecipients(null);
    adminApi.telegram
      .previewBroadcast({ audience, locale: locale || null }, controller.signal)
      .then((answer) => setRecipients(answer.recipients))
      .catch(() => undefined);
    return () => controller.abort();
  }, [audience, locale]);

  const inProgress = list.some((broadcast) => broadcast.status === 'sending');
  useEffect(() => {
    if (!inProgress) return;
    const timer = window.setInterval(() => void reload(), PROGRESS_POLL_MS);
    return () => window.clearInterval(timer);
  }, [inProgress, reload]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSending(true);
    setAlert(null);
    setError(undefined);
    try {
      const created = await adminApi.telegram.sendBroadcast({ text, audience, locale: locale || null });
      setList((current) => [created, ...current]);
      setText('');
      setAlert(_('adminSettings.broadcast.queued', { count: created.total }));
    } catch (caught) {
      if (isApiError(caught) && caught.fields?.text) setError(caught.fields.text);
      else setAlert(isApiError(caught) && caught.message ? caught.message : _('adminSettings.broadcast.failed'));
    } finally {
      setSending(false);
    }
  }

  async function cancel(id: string) {
    const cancelled = await adminApi.telegram.cancelBroadcast(id).catch(() => null);
    if (cancelled) setList((current) => current.map((broadcast) => (broadcast.id === id ? cancelled : broadcast)));
    else await reload();
  }

  const audienceName = (value: BroadcastAudience) => _(`adminSettings.broadcast.audience.${value}`);
  const statusName = (broadcast: TelegramBroadcast) => _(`adminSettings.broadcast.status.${broadcast.status}`);

  return (
    <SettingsSection title={_('adminSettings.broadcast.title')}>
      <p className="mt-1 text-sm text-slate-600">{_('adminSettings.broadcast.intro')}</p>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        {alert && <AlertBox reveal>{alert}</AlertBox>}
        <TextAreaField
          label={_('adminSettings.broadcast.text')}
          value={text}
          onValueChange={setText}
          rows={5}
          maxLength={BROADCAST_TEXT_MAX}
          required
          error={error}
        />
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField label={_('adminSettings.broadcast.audience')} value={audience} onValueChange={(value) => setAudience(value as BroadcastAudience)}>
            {BROADCAST_AUDIENCES.map((value) => (
              <option key={value} value={value}>
                {audienceName(value)}
              </option>
            ))}
          </SelectField>
          <SelectField label={_('adminSettings.broadcast.language')} value={locale} onValueChange={(value) => setLocale(value as Locale | '')}>
            <option value="">{_('adminSettings.broadcast.anyLanguage')}</option>
            {LOCALES.map((value) => (
              <option key={value} value={value}>
                {LOCALE_NAMES[value]}
              </option>
            ))}
          </SelectField>
        </div>
        <div className="flex flex-wrap items-center justify-end gap-3 pt-2">
          <p role="status" className="text-sm text-slate-600">
            {recipients === null ? '' : _('adminSettings.broadcast.reach', { count: recipients })}
          </p>
          <button type="submit" aria-disabled={sending || recipients === 0} disabled={sending || recipients === 0} className={buttonClass.primary}>
            {_('adminSettings.broadcast.send')}
          </button>
        </div>
      </form>
      {list.length > 0 && (
        <ul className="mt-6 divide-y divide-slate-200 border-t border-slate-200" aria-label={_('adminSettings.broadcast.list')}>
          {list.map((broadcast) => (
            <li key={broadcast.id} className="flex flex-wrap items-start justify-between gap-3 py-3 text-sm">
              <div className="min-w-0 flex-1">
                <p className="line-clamp-2 break-words text-slate-900">{broadcast.text}</p>
                <p className="mt-1 text-slate-600">
                  {format.dateTime(broadcast.createdAt)} · {audienceName(broadcast.audience)}
                  {broadcast.locale ? ` · ${LOCALE_NAMES[broadcast.locale]}` : ''} · {statusName(broadcast)}
                </p>
                <p className="mt-1 text-slate-600">
                  {_('adminSettings.broadcast.counts', {
                    sent: broadcast.counts.sent,
                    total: broadcast.total,
                    blocked: broadcast.counts.blocked,
                    failed: broadcast.counts.failed,
                  })}
                </p>
              </div>
              {broadcast.status === 'sending' && (
                <button type="button" className={rowButtonClass.danger} onClick={() => void cancel(broadcast.id)}>
                  {_('adminSettings.broadcast.cancel')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </SettingsSection>
  );
}
