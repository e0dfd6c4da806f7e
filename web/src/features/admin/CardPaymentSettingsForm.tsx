import { useId, useState, type FormEvent } from 'react';
import { BILLING_MESSAGES, type CardPaymentSettings } from '../../../../shared/billing.js';
import { isApiError } from '../../api';
import { adminApi } from '../../api/admin-endpoints';
import { CopyButton } from '../setup/CopyButton';
import { useToast } from '../toast/toast-context';
import { AlertBox } from './AlertBox';
import { buttonClass, inputClass } from './admin-ui';
import { SettingsSection } from './SettingsSection';
import { fieldErrors } from './admin-errors';
import { KEY_ENV_VARS, toCardSettingsUpdate, valuesFromCardSettings, type CardPaymentFormValues, type SecretKeyName } from './card-payment-form';
import { CheckboxField, TextField } from './form-fields';
import { SecretKeyField } from './SecretKeyField';

const MESSAGES = {
  updated: 'Stripe settings updated',
  webhookUrlCopied: 'Webhook URL copied to clipboard',
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

/** The address to paste into Stripe's dashboard as the webhook endpoint, with a copy button. */
function WebhookUrlField({ url }: { url: string }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        Webhook endpoint URL
      </label>
      <div className="flex items-start gap-2">
        <input id={id} readOnly value={url} aria-describedby={`${id}-hint`} className={`${inputClass} font-mono text-sm`} />
        <CopyButton text={url} successMessage={MESSAGES.webhookUrlCopied} label="Copy" srDetail="webhook URL" className={`${buttonClass.secondary} mt-1 shrink-0`} />
      </div>
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
        In Stripe, add an endpoint with this URL for the checkout.session, charge (refunds and disputes), invoice and
        customer.subscription events (the last two for plans that renew automatically), then paste its signing secret above.
      </p>
    </div>
  );
}

/**
 * 'Card payments (Stripe)': on/off, the publishable key, and the write-only secret key and webhook
 * secret (blank keeps, Clear removes), saved with PUT /api/admin/payments/card.
 */
export function CardPaymentSettingsForm({ settings: initial }: { settings: CardPaymentSettings }) {
  const toast = useToast();
  const [settings, setSettings] = useState(initial);
  const [values, setValues] = useState<CardPaymentFormValues>(() => valuesFromCardSettings(initial));
  const [fields, setFields] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const update = (changes: Partial<CardPaymentFormValues>) => setValues((current) => ({ ...current, ...changes }));
  const publishableEnv = envVarFor(settings, 'publishableKey');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (saving) return;
    setSaving(true);
    setFields({});
    setAlert(null);
    try {
      const saved = await adminApi.payments.updateCard(toCardSettingsUpdate(values, settings.sources));
      toast.success(MESSAGES.updated);
      setSettings(saved);
      setValues(valuesFromCardSettings(saved));
    } catch (err) {
      setAlert(saveErrorMessage(err));
      setFields(fieldErrors(err));
    } finally {
      setSaving(false);
    }
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
        <WebhookUrlField url={settings.webhookUrl} />
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
