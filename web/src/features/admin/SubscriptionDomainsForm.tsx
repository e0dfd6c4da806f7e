import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import type { AdminSettings } from '../../../../shared/app-settings.js';
import { SUBSCRIPTION_DOMAINS_MAX, type SubscriptionDomain } from '../../../../shared/subscription-domains.js';
import { buttonClass } from './admin-ui';
import { CheckboxField, TextField } from './form-fields';
import { SettingsSection } from './SettingsSection';
import { useSettingsSave } from './useSettingsSave';

/**
 * 'Subscription domains': spare public domains that `/sub` answers on. Links are issued on the first one not
 * blocked; marking it blocked moves every customer (their apps, dashboard and an e-mail). Saved whole with
 * PUT /api/admin/settings.
 */
export function SubscriptionDomainsForm({ settings, publicHost }: { settings: Pick<AdminSettings, 'subscriptionDomains'>; publicHost: string }) {
  const { _ } = useLingui();
  const [domains, setDomains] = useState<SubscriptionDomain[]>(settings.subscriptionDomains);
  const { fields, saving, save } = useSettingsSave({ updated: _('adminSettings.subDomains.updated'), updateFailed: _('adminSettings.updateFailed') });
  const issuedOn = domains.find((entry) => !entry.blocked && entry.domain.trim() !== '')?.domain.trim() || publicHost;
  const change = (index: number, patch: Partial<SubscriptionDomain>) =>
    setDomains((list) => list.map((entry, i) => (i === index ? { ...entry, ...patch } : entry)));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const list = domains.filter((entry) => entry.domain.trim() !== '').map((entry) => ({ domain: entry.domain.trim(), blocked: entry.blocked }));
    await save({ subscriptionDomains: list }, {}, (saved) => setDomains(saved.subscriptionDomains));
  }

  return (
    <SettingsSection title={_('adminSettings.subDomains.title')}>
      <p className="mt-1 text-sm text-slate-600">{_('adminSettings.subDomains.intro')}</p>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        {domains.length === 0 && <p className="text-sm text-slate-500">{_('adminSettings.subDomains.none', { host: publicHost })}</p>}
        <ol className="space-y-3">
          {domains.map((entry, index) => (
            <li key={index} className="rounded-lg border border-slate-200 p-3">
              <TextField
                label={_('adminSettings.subDomains.domain', { number: index + 1 })}
                dir="ltr"
                autoComplete="off"
                placeholder="sub1.example.com"
                value={entry.domain}
                onValueChange={(domain) => change(index, { domain })}
                error={fields[`subscriptionDomains.${index}.domain`]}
              />
              <div className="mt-2 flex flex-wrap items-start justify-between gap-3">
                <CheckboxField
                  label={_('adminSettings.subDomains.blocked')}
                  checked={entry.blocked}
                  onCheckedChange={(blocked) => change(index, { blocked })}
                  hint={_('adminSettings.subDomains.blockedHint')}
                />
                <button type="button" className={buttonClass.secondary} onClick={() => setDomains((list) => list.filter((_entry, i) => i !== index))}>
                  {_('adminSettings.subDomains.remove', { domain: entry.domain || String(index + 1) })}
                </button>
              </div>
            </li>
          ))}
        </ol>
        {fields.subscriptionDomains && (
          <p className="text-sm text-red-700" role="alert">
            {fields.subscriptionDomains}
          </p>
        )}
        <p className="text-sm text-slate-700" aria-live="polite">
          {_('adminSettings.subDomains.issuedOn', { host: issuedOn })}
        </p>
        <div className="flex flex-wrap justify-between gap-3 pt-2">
          <button
            type="button"
            className={buttonClass.secondary}
            disabled={domains.length >= SUBSCRIPTION_DOMAINS_MAX}
            onClick={() => setDomains((list) => [...list, { domain: '', blocked: false }])}
          >
            {_('adminSettings.subDomains.add')}
          </button>
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.subDomains.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
