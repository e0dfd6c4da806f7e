import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import type { AdminSettings } from '../../../../shared/app-settings.js';
import { LOCALES, type Locale } from '../../../../shared/locales.js';
import { SUBSCRIPTION_HEADER_LIMITS } from '../../../../shared/subscription-headers.js';
import { buttonClass } from './admin-ui';
import { CheckboxField, TextAreaField, TextField } from './form-fields';
import { SettingsSection } from './SettingsSection';
import { useSettingsSave } from './useSettingsSave';

/** Each language's own name, as its readers write it. */
const LANGUAGE_NAMES: Record<Locale, string> = { en: 'English', ru: 'Русский', fa: 'فارسی', 'zh-CN': '简体中文' };

/**
 * 'VPN apps': the headers apps act on when they update a subscription (an announcement per language, a routing
 * profile, Happ's provider headers, the update interval), each with what it does; saved with PUT /api/admin/settings.
 */
export function SubscriptionHeadersForm({ settings }: { settings: Pick<AdminSettings, 'subscriptionHeaders'> }) {
  const { _ } = useLingui();
  const initial = settings.subscriptionHeaders;
  const [announce, setAnnounce] = useState<Partial<Record<Locale, string>>>(initial.announce);
  const [routing, setRouting] = useState(initial.routing ?? '');
  const [providerId, setProviderId] = useState(initial.happProviderId ?? '');
  const [hideSettings, setHideSettings] = useState(initial.hideSettings);
  const [hours, setHours] = useState(String(initial.updateIntervalHours));
  const { fields, saving, save } = useSettingsSave({ updated: _('adminSettings.appHeaders.updated'), updateFailed: _('adminSettings.updateFailed') });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const interval = Number(hours);
    const invalid: Record<string, string> = {};
    if (!Number.isInteger(interval)) invalid['subscriptionHeaders.updateIntervalHours'] = _('adminSettings.appHeaders.hoursInvalid');
    const body = {
      subscriptionHeaders: {
        announce: Object.fromEntries(LOCALES.map((locale) => [locale, (announce[locale] ?? '').trim()])),
        routing: routing.trim() || null,
        happProviderId: providerId.trim() || null,
        hideSettings,
        updateIntervalHours: interval,
      },
    };
    await save(body, invalid, (saved) => {
      const next = saved.subscriptionHeaders;
      setAnnounce(next.announce);
      setRouting(next.routing ?? '');
      setProviderId(next.happProviderId ?? '');
      setHideSettings(next.hideSettings);
      setHours(String(next.updateIntervalHours));
    });
  }

  return (
    <SettingsSection title={_('adminSettings.appHeaders.title')}>
      <p className="mt-1 text-sm text-slate-600">{_('adminSettings.appHeaders.intro')}</p>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        <TextField
          label={_('adminSettings.appHeaders.interval')}
          inputMode="numeric"
          value={hours}
          onValueChange={setHours}
          error={fields['subscriptionHeaders.updateIntervalHours']}
          hint={_('adminSettings.appHeaders.intervalHint', { min: SUBSCRIPTION_HEADER_LIMITS.minHours, max: SUBSCRIPTION_HEADER_LIMITS.maxHours })}
        />
        <fieldset className="space-y-3">
          <legend className="text-sm font-medium text-slate-700">{_('adminSettings.appHeaders.announce')}</legend>
          <p className="text-sm text-slate-500">{_('adminSettings.appHeaders.announceHint', { max: SUBSCRIPTION_HEADER_LIMITS.announceChars })}</p>
          {LOCALES.map((locale) => (
            <TextField
              key={locale}
              label={LANGUAGE_NAMES[locale]}
              lang={locale}
              dir="auto"
              maxLength={SUBSCRIPTION_HEADER_LIMITS.announceChars}
              value={announce[locale] ?? ''}
              onValueChange={(text) => setAnnounce((texts) => ({ ...texts, [locale]: text }))}
              error={fields[`subscriptionHeaders.announce.${locale}`]}
            />
          ))}
        </fieldset>
        <TextAreaField
          label={_('adminSettings.appHeaders.routing')}
          dir="ltr"
          rows={2}
          value={routing}
          onValueChange={setRouting}
          error={fields['subscriptionHeaders.routing']}
          hint={_('adminSettings.appHeaders.routingHint')}
        />
        <TextField
          label={_('adminSettings.appHeaders.providerId')}
          dir="ltr"
          autoComplete="off"
          value={providerId}
          onValueChange={setProviderId}
          error={fields['subscriptionHeaders.happProviderId']}
          hint={_('adminSettings.appHeaders.providerIdHint')}
        />
        <CheckboxField
          label={_('adminSettings.appHeaders.hideSettings')}
          checked={hideSettings}
          onCheckedChange={setHideSettings}
          disabled={providerId.trim() === ''}
          hint={_('adminSettings.appHeaders.hideSettingsHint')}
        />
        <div className="flex justify-end pt-2">
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.appHeaders.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
