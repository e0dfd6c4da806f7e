import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import type { TelegramSettings, UpdateTelegramBody } from '../../../../shared/telegram.js';
import { isApiError } from '../../api';
import { Loading } from '../../components/Loading';
import { adminApi } from '../../api/admin-endpoints';
import { AlertBox } from './AlertBox';
import { buttonClass } from './admin-ui';
import { secretChange, type SecretInput } from './card-payment-form';
import { CheckboxField, TextField } from './form-fields';
import { SecretKeyField } from './SecretKeyField';
import { SettingsSection } from './SettingsSection';
import { TelegramBroadcasts } from './TelegramBroadcasts';
import { useAdminResource } from './useAdminResource';
import { useProviderSettingsSave } from './useProviderSettingsSave';

interface TelegramFormValues {
  enabled: boolean;
  botToken: SecretInput;
  channel: string;
  /** The admin chats' ids, comma- or space-separated as typed. */
  adminChatIds: string;
}

const valuesFrom = (settings: TelegramSettings): TelegramFormValues => ({
  enabled: settings.enabled,
  botToken: { value: '', clear: false },
  channel: settings.channel ?? '',
  adminChatIds: settings.adminChatIds.join(', '),
});

/** The PUT body: the token only when typed or cleared; ids that are not numbers go to the server, which says so. */
function toUpdate(values: TelegramFormValues): UpdateTelegramBody {
  const ids = values.adminChatIds.split(/[\s,]+/).filter(Boolean);
  const update: UpdateTelegramBody = {
    enabled: values.enabled,
    channel: values.channel.trim() === '' ? null : values.channel.trim(),
    adminChatIds: ids.map((id) => (/^-?\d+$/.test(id) ? Number(id) : id)) as number[],
  };
  const botToken = secretChange(values.botToken);
  if (botToken !== undefined) update.botToken = botToken;
  return update;
}

/** How updates reach the bot now, and Telegram's last word on it. */
function DeliveryStatus({ settings }: { settings: TelegramSettings }) {
  const { _ } = useLingui();
  const { webhook } = settings;
  const mode = {
    webhook: _('adminSettings.telegram.mode.webhook'),
    polling: _('adminSettings.telegram.mode.polling'),
    off: _('adminSettings.telegram.mode.off'),
  }[webhook.mode];
  return (
    <dl className="mt-4 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
      <dt className="font-medium text-slate-700">{_('adminSettings.telegram.bot')}</dt>
      <dd className="break-all text-slate-600">
        {settings.username ? (
          <a className="text-indigo-700 underline" href={`https://t.me/${settings.username}`} target="_blank" rel="noreferrer">
            @{settings.username}
          </a>
        ) : (
          _('adminSettings.telegram.noBot')
        )}
      </dd>
      <dt className="font-medium text-slate-700">{_('adminSettings.telegram.updates')}</dt>
      <dd className="break-all text-slate-600">
        {mode}
        {webhook.url ? ` · ${webhook.url}` : ''}
      </dd>
      {webhook.pendingUpdates !== null && (
        <>
          <dt className="font-medium text-slate-700">{_('adminSettings.telegram.pending')}</dt>
          <dd className="text-slate-600">{webhook.pendingUpdates}</dd>
        </>
      )}
      {webhook.lastError && (
        <>
          <dt className="font-medium text-slate-700">{_('adminSettings.telegram.lastError')}</dt>
          <dd role="status" className="break-words text-red-700">
            {webhook.lastError}
          </dd>
        </>
      )}
    </dl>
  );
}

/**
 * 'Telegram bot': the bot's write-only token (checked with getMe when saved), on/off, the channel customers must join
 * before the trial and the admins' chats, with how updates reach the bot and Telegram's last error delivering them.
 */
function TelegramSettingsForm({ settings: initial }: { settings: TelegramSettings }) {
  const { _ } = useLingui();
  const [settings, setSettings] = useState(initial);
  const [values, setValues] = useState<TelegramFormValues>(() => valuesFrom(initial));
  const { fields, alert, saving, save } = useProviderSettingsSave<TelegramSettings>({ updated: _('adminSettings.telegram.updated') }, (err) =>
    isApiError(err) && err.message ? err.message : _('adminSettings.telegram.failed'),
  );
  const update = (changes: Partial<TelegramFormValues>) => setValues((current) => ({ ...current, ...changes }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await save(
      () => adminApi.telegram.update(toUpdate(values)),
      (saved) => {
        setSettings(saved);
        setValues(valuesFrom(saved));
      },
    );
  }

  return (
    <SettingsSection title={_('adminSettings.telegram.title')}>
      <p className="mt-1 text-sm text-slate-600">{_('adminSettings.telegram.intro')}</p>
      <DeliveryStatus settings={settings} />
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4" autoComplete="off">
        {alert && <AlertBox reveal>{alert}</AlertBox>}
        <CheckboxField
          label={_('adminSettings.telegram.enabled')}
          checked={values.enabled}
          onCheckedChange={(enabled) => update({ enabled })}
          hint={_('adminSettings.telegram.enabledHint')}
        />
        <SecretKeyField
          label={_('adminSettings.telegram.token')}
          clearLabel={_('adminSettings.telegram.tokenClear')}
          input={values.botToken}
          onInputChange={(botToken) => update({ botToken })}
          isSet={settings.botTokenSet}
          envVar={null}
          hint={_('adminSettings.telegram.tokenHint')}
          error={fields.botToken}
        />
        <TextField
          label={_('adminSettings.telegram.channel')}
          value={values.channel}
          onValueChange={(channel) => update({ channel })}
          placeholder="@your_channel"
          hint={_('adminSettings.telegram.channelHint')}
          error={fields.channel}
        />
        <TextField
          label={_('adminSettings.telegram.adminChats')}
          value={values.adminChatIds}
          onValueChange={(adminChatIds) => update({ adminChatIds })}
          inputMode="numeric"
          hint={_('adminSettings.telegram.adminChatsHint')}
          error={fields.adminChatIds ?? Object.entries(fields).find(([key]) => key.startsWith('adminChatIds.'))?.[1]}
        />
        <div className="flex justify-end pt-2">
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.telegram.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}

const loadTelegram = (signal: AbortSignal) => adminApi.telegram.get(signal);

/** The Telegram tab: the bot's settings and health (docs/telegram.md says how to make a bot). */
export function TelegramTab({ refreshKey }: { refreshKey: number }) {
  const { _ } = useLingui();
  const { data, loadState } = useAdminResource(loadTelegram, refreshKey);
  if (!data) return loadState === 'failed' ? <AlertBox>{_('adminSettings.telegram.loadFailed')}</AlertBox> : <Loading />;
  return (
    <div className="space-y-8">
      <TelegramSettingsForm key={JSON.stringify(data)} settings={data} />
      {data.enabled && <TelegramBroadcasts />}
    </div>
  );
}
