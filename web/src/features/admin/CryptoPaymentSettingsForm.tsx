import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import { CARD_PRIORITY, type CryptoPaymentSettings } from '../../../../shared/billing.js';
import type { UpdateCryptoPaymentBody } from '../../../../shared/billing-schemas.js';
import { isApiError } from '../../api';
import { adminApi } from '../../api/admin-endpoints';
import { AlertBox } from './AlertBox';
import { buttonClass } from './admin-ui';
import { secretChange, type SecretInput } from './card-payment-form';
import { CheckboxField, TextField } from './form-fields';
import { SecretKeyField } from './SecretKeyField';
import { SettingsSection } from './SettingsSection';
import { useProviderSettingsSave } from './useProviderSettingsSave';
import { WebhookUrlField } from './WebhookUrlField';

/** Priorities either side of card payments' (100): crypto first, or card first. */
const CRYPTO_FIRST = CARD_PRIORITY + 100;
const CARD_FIRST = CARD_PRIORITY - 50;
const EMPTY_SECRET: SecretInput = { value: '', clear: false };

interface CryptoFormValues {
  enabled: boolean;
  serverUrl: string;
  storeId: string;
  apiKey: SecretInput;
  webhookSecret: SecretInput;
  cryptoFirst: boolean;
}

const valuesFrom = (settings: CryptoPaymentSettings): CryptoFormValues => ({
  enabled: settings.enabled,
  serverUrl: settings.serverUrl ?? '',
  storeId: settings.storeId ?? '',
  apiKey: EMPTY_SECRET,
  webhookSecret: EMPTY_SECRET,
  cryptoFirst: settings.priority > CARD_PRIORITY,
});

/** The body of PUT /api/admin/payments/crypto: the address and store only once typed, the secrets only when changed. */
function toUpdate(values: CryptoFormValues): UpdateCryptoPaymentBody {
  const update: UpdateCryptoPaymentBody = { enabled: values.enabled, priority: values.cryptoFirst ? CRYPTO_FIRST : CARD_FIRST };
  if (values.serverUrl.trim()) update.serverUrl = values.serverUrl.trim();
  if (values.storeId.trim()) update.storeId = values.storeId.trim();
  const apiKey = secretChange(values.apiKey);
  if (apiKey !== undefined) update.apiKey = apiKey;
  const webhookSecret = secretChange(values.webhookSecret);
  if (webhookSecret !== undefined) update.webhookSecret = webhookSecret;
  return update;
}

/**
 * 'Crypto payments (BTCPay Server)': the operator's own BTCPay store — its address, store id, and the
 * write-only API key and webhook secret — on/off, and whether crypto is offered before card. Saving new
 * connection details reads the store first (PUT /api/admin/payments/crypto).
 */
export function CryptoPaymentSettingsForm({ settings: initial }: { settings: CryptoPaymentSettings }) {
  const [settings, setSettings] = useState(initial);
  const [values, setValues] = useState<CryptoFormValues>(() => valuesFrom(initial));
  const { _ } = useLingui();
  const { fields, alert, saving, save } = useProviderSettingsSave<CryptoPaymentSettings>({ updated: _('adminSettings.crypto.updated') }, (err) =>
    isApiError(err) && err.message ? err.message : _('adminSettings.crypto.failed'),
  );
  const update = (changes: Partial<CryptoFormValues>) => setValues((current) => ({ ...current, ...changes }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await save(
      () => adminApi.payments.updateCrypto(toUpdate(values)),
      (saved) => {
        setSettings(saved);
        setValues(valuesFrom(saved));
      },
    );
  }

  return (
    <SettingsSection title={_('adminSettings.crypto.title')}>
      <p className="mt-1 text-sm text-slate-600">{_('adminSettings.crypto.intro')}</p>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4" autoComplete="off">
        {alert && <AlertBox reveal>{alert}</AlertBox>}
        <CheckboxField
          label={_('adminSettings.crypto.enabled')}
          checked={values.enabled}
          onCheckedChange={(enabled) => update({ enabled })}
          hint={_('adminSettings.crypto.enabledHint')}
        />
        <TextField
          label={_('adminSettings.crypto.serverUrl')}
          type="url"
          value={values.serverUrl}
          onValueChange={(serverUrl) => update({ serverUrl })}
          placeholder="https://btcpay.example.com"
          error={fields.serverUrl}
        />
        <TextField
          label={_('adminSettings.crypto.storeId')}
          value={values.storeId}
          onValueChange={(storeId) => update({ storeId })}
          spellCheck={false}
          error={fields.storeId}
          hint={_('adminSettings.crypto.storeIdHint')}
        />
        <SecretKeyField
          label={_('adminSettings.crypto.apiKey')}
          clearLabel={_('adminSettings.crypto.apiKeyClear')}
          input={values.apiKey}
          onInputChange={(apiKey) => update({ apiKey })}
          isSet={settings.apiKeySet}
          envVar={null}
          hint={_('adminSettings.crypto.apiKeyHint')}
          error={fields.apiKey}
        />
        <SecretKeyField
          label={_('adminSettings.crypto.webhookSecret')}
          clearLabel={_('adminSettings.crypto.webhookSecretClear')}
          input={values.webhookSecret}
          onInputChange={(webhookSecret) => update({ webhookSecret })}
          isSet={settings.webhookSecretSet}
          envVar={null}
          hint={_('adminSettings.crypto.webhookSecretHint')}
          error={fields.webhookSecret}
        />
        <WebhookUrlField url={settings.webhookUrl} what="BTCPay" note={_('adminSettings.crypto.webhookNote')} />
        <CheckboxField
          label={_('adminSettings.crypto.cryptoFirst')}
          checked={values.cryptoFirst}
          onCheckedChange={(cryptoFirst) => update({ cryptoFirst })}
          hint={_('adminSettings.crypto.cryptoFirstHint')}
        />
        <div className="flex justify-end pt-2">
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.crypto.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
