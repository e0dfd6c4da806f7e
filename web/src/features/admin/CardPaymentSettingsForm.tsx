import { useState, type FormEvent } from 'react';
import { BILLING_MESSAGES, type CardPaymentSettings } from '../../../../shared/billing.js';
import { isApiError } from '../../api';
import { adminApi } from '../../api/admin-endpoints';
import { AlertBox } from './AlertBox';
import { buttonClass } from './admin-ui';
import { SettingsSection } from './SettingsSection';
import { useProviderSettingsSave } from './useProviderSettingsSave';
import { KEY_ENV_VARS, toCardSettingsUpdate, valuesFromCardSettings, type CardPaymentFormValues, type SecretKeyName } from './card-payment-form';
import { CheckboxField, TextField } from './form-fields';
import { SecretKeyField } from './SecretKeyField';
import { WebhookUrlField } from './WebhookUrlField';

const MESSAGES = {
  updated: 'Stripe settings updated',
} as const;

const SECRET_FIELDS: ReadonlyArray<{ name: SecretKeyName; label: string; hint: string; isSet: (s: CardPaymentSettings) => boolean }> = [
  { name: 'secretKey', label: 'Secret key', hint: 'sk_… or a restricted rk_… key.', isSet: (s) => s.secretKeySet },
  { name: 'webhookSecret', label: 'Webhook signing secret', hint: 'whsec_…, shown in Stripe when you add the endpoint below.', isSet: (s) => s.webhookSecretSet },
];

/** The server's message for a refused value; the catalogue message for anything else. */
function saveErrorMessage(error: unknown): string {
  return isApiError(error) && error.code === 'validation_failed' && error.message ? error.message : BILLING_MESSAGES.stripeSettingsFailed;
}

const envVarFor = (settings: CardPaymentSettings, name: keyof typeof KEY_ENV_VARS) =>
  settings.sources[name] === 'env' ? KEY_ENV_VARS[name] : null;

/**
 * 'Card payments (Stripe)': on/off, the publishable key, and the write-only secret key and webhook
 * secret (blank keeps, Clear removes), saved with PUT /api/admin/payments/card.
 */
export function CardPaymentSettingsForm({ settings: initial }: { settings: CardPaymentSettings }) {
  const [settings, setSettings] = useState(initial);
  const [values, setValues] = useState<CardPaymentFormValues>(() => valuesFromCardSettings(initial));
  const { fields, alert, saving, save } = useProviderSettingsSave<CardPaymentSettings>(MESSAGES, saveErrorMessage);
  const update = (changes: Partial<CardPaymentFormValues>) => setValues((current) => ({ ...current, ...changes }));
  const publishableEnv = envVarFor(settings, 'publishableKey');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await save(() => adminApi.payments.updateCard(toCardSettingsUpdate(values, settings.sources)), (saved) => {
      setSettings(saved);
      setValues(valuesFromCardSettings(saved));
    });
  }

  return (
    <SettingsSection title="Card payments (Stripe)">
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4" autoComplete="off">
        {alert && <AlertBox reveal>{alert}</AlertBox>}
        <CheckboxField
          label="Accept card payments"
          checked={values.enabled}
          onCheckedChange={(enabled) => update({ enabled })}
          hint="Customers can buy and renew paid plans by card once the keys below are set."
        />
        <TextField
          label="Publishable key"
          value={publishableEnv ? (settings.publishableKey ?? '') : values.publishableKey}
          onValueChange={(publishableKey) => update({ publishableKey })}
          readOnly={publishableEnv !== null}
          placeholder="pk_…"
          autoComplete="off"
          spellCheck={false}
          hint={publishableEnv ? `Set by the ${publishableEnv} environment variable` : 'pk_live_… or pk_test_…; empty clears it.'}
          error={fields.publishableKey}
        />
        {SECRET_FIELDS.map(({ name, label, hint, isSet }) => (
          <SecretKeyField
            key={name}
            label={label}
            input={values[name]}
            onInputChange={(input) => update({ [name]: input })}
            isSet={isSet(settings)}
            envVar={envVarFor(settings, name)}
            hint={hint}
            error={fields[name]}
          />
        ))}
        <WebhookUrlField
          url={settings.webhookUrl}
          what="Stripe"
          note="In Stripe, add an endpoint with this URL for the checkout.session, charge (refunds and disputes), invoice and customer.subscription events (the last two for plans that renew automatically), then paste its signing secret above."
        />
        <div className="flex justify-end pt-2">
          {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? 'Saving...' : 'Save Stripe settings'}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
