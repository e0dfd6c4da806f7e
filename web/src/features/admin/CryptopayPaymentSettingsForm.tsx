import { useLingui } from '@lingui/react';
import { useId, useState, type FormEvent } from 'react';
import { CARD_PRIORITY, type CryptopayPaymentSettings } from '../../../../shared/billing.js';
import { CRYPTOPAY_ASSETS, type UpdateCryptopayPaymentBody } from '../../../../shared/billing-schemas.js';
import { isApiError } from '../../api';
import { adminApi } from '../../api/admin-endpoints';
import { AlertBox } from './AlertBox';
import { buttonClass } from './admin-ui';
import { secretChange, type SecretInput } from './card-payment-form';
import { CheckboxField, SelectField } from './form-fields';
import { SecretKeyField } from './SecretKeyField';
import { SettingsSection } from './SettingsSection';
import { useProviderSettingsSave } from './useProviderSettingsSave';
import { WebhookUrlField } from './WebhookUrlField';

const EMPTY_SECRET: SecretInput = { value: '', clear: false };

interface CryptopayFormValues {
  enabled: boolean;
  network: CryptopayPaymentSettings['network'];
  apiToken: SecretInput;
  assets: string[];
  cryptopayFirst: boolean;
}

const valuesFrom = (settings: CryptopayPaymentSettings): CryptopayFormValues => ({
  enabled: settings.enabled,
  network: settings.network,
  apiToken: EMPTY_SECRET,
  assets: settings.assets,
  cryptopayFirst: settings.priority > CARD_PRIORITY,
});

function toUpdate(values: CryptopayFormValues): UpdateCryptopayPaymentBody {
  const update: UpdateCryptopayPaymentBody = {
    enabled: values.enabled,
    network: values.network,
    assets: values.assets as UpdateCryptopayPaymentBody['assets'],
    priority: values.cryptopayFirst ? CARD_PRIORITY + 40 : CARD_PRIORITY - 40,
  };
  const apiToken = secretChange(values.apiToken);
  if (apiToken !== undefined) update.apiToken = apiToken;
  return update;
}

/** The coins a customer may pay with: a checkbox each. */
function AssetsField({ value, onChange, error }: { value: string[]; onChange: (assets: string[]) => void; error?: string }) {
  const { _ } = useLingui();
  const id = useId();
  const toggle = (asset: string, on: boolean) => onChange(on ? [...value, asset] : value.filter((item) => item !== asset));
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend className="block text-sm font-medium text-slate-700">{_('adminSettings.cryptopay.assets')}</legend>
      <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
        {CRYPTOPAY_ASSETS.map((asset) => (
          <label key={asset} className="inline-flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              checked={value.includes(asset)}
              onChange={(event) => toggle(asset, event.target.checked)}
              className="size-4 rounded border-slate-300"
            />
            {asset}
          </label>
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/**
 * 'Crypto Pay (USDT, TON)': the app's write-only API token, its network, the coins accepted, on/off and whether it
 * is offered before card. A new token is checked with getMe (PUT /api/admin/payments/cryptopay). Invoices are priced
 * in the store's currency: the form says when Crypto Pay cannot price in it.
 */
export function CryptopayPaymentSettingsForm({ settings: initial }: { settings: CryptopayPaymentSettings }) {
  const [settings, setSettings] = useState(initial);
  const [values, setValues] = useState<CryptopayFormValues>(() => valuesFrom(initial));
  const { _ } = useLingui();
  const { fields, alert, saving, save } = useProviderSettingsSave<CryptopayPaymentSettings>({ updated: _('adminSettings.cryptopay.updated') }, (err) =>
    isApiError(err) && err.message ? err.message : _('adminSettings.cryptopay.failed'),
  );
  const update = (changes: Partial<CryptopayFormValues>) => setValues((current) => ({ ...current, ...changes }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await save(
      () => adminApi.payments.updateCryptopay(toUpdate(values)),
      (saved) => {
        setSettings(saved);
        setValues(valuesFrom(saved));
      },
    );
  }

  return (
    <SettingsSection title={_('adminSettings.cryptopay.title')}>
      <p className="mt-1 text-sm text-slate-600">{_('adminSettings.cryptopay.intro')}</p>
      {!settings.currencySupported && (
        <p role="note" className="mt-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {_('adminSettings.cryptopay.currencyNote')}
        </p>
      )}
      {settings.appName && <p className="mt-3 text-sm text-slate-600">{_('adminSettings.cryptopay.app', { name: settings.appName })}</p>}
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4" autoComplete="off">
        {alert && <AlertBox reveal>{alert}</AlertBox>}
        <CheckboxField
          label={_('adminSettings.cryptopay.enabled')}
          checked={values.enabled}
          onCheckedChange={(enabled) => update({ enabled })}
          hint={_('adminSettings.cryptopay.enabledHint')}
        />
        <SelectField
          label={_('adminSettings.cryptopay.network')}
          value={values.network}
          onValueChange={(network) => update({ network: network as CryptopayFormValues['network'] })}
          error={fields.network}
        >
          <option value="mainnet">{_('adminSettings.cryptopay.mainnet')}</option>
          <option value="testnet">{_('adminSettings.cryptopay.testnet')}</option>
        </SelectField>
        <SecretKeyField
          label={_('adminSettings.cryptopay.apiToken')}
          clearLabel={_('adminSettings.cryptopay.apiTokenClear')}
          input={values.apiToken}
          onInputChange={(apiToken) => update({ apiToken })}
          isSet={settings.apiTokenSet}
          envVar={null}
          hint={_('adminSettings.cryptopay.apiTokenHint')}
          error={fields.apiToken}
        />
        <AssetsField value={values.assets} onChange={(assets) => update({ assets })} error={fields.assets} />
        <WebhookUrlField url={settings.webhookUrl} what="Crypto Pay" note={_('adminSettings.cryptopay.webhookNote')} />
        <CheckboxField
          label={_('adminSettings.cryptopay.first')}
          checked={values.cryptopayFirst}
          onCheckedChange={(cryptopayFirst) => update({ cryptopayFirst })}
          hint={_('adminSettings.cryptopay.firstHint')}
        />
        <div className="flex justify-end pt-2">
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.cryptopay.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
