import { ERR } from '../../../../shared/errors.js';
import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import type { CardPaymentSettings } from '../../../../shared/billing.js';
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

/** The two write-only keys; their texts are message ids. */
const SECRET_FIELDS: ReadonlyArray<{ name: SecretKeyName; labelId: string; hintId: string; clearId: string; isSet: (s: CardPaymentSettings) => boolean }> = [
  {
    name: 'secretKey',
    labelId: 'adminSettings.card.secretKey',
    hintId: 'adminSettings.card.secretKeyHint',
    clearId: 'adminSettings.card.secretKeyClear',
    isSet: (s) => s.secretKeySet,
  },
  {
    name: 'webhookSecret',
    labelId: 'adminSettings.card.webhookSecret',
    hintId: 'adminSettings.card.webhookSecretHint',
    clearId: 'adminSettings.card.webhookSecretClear',
    isSet: (s) => s.webhookSecretSet,
  },
];

/** The server's message for a refused value; `fallback` (the catalogue message) for anything else. */
function saveErrorMessage(error: unknown, fallback: string): string {
  return isApiError(error) && error.code === ERR.validation_failed && error.message ? error.message : fallback;
}

const envVarFor = (settings: CardPaymentSettings, name: keyof typeof KEY_ENV_VARS) => (settings.sources[name] === 'env' ? KEY_ENV_VARS[name] : null);

/**
 * 'Card payments (Stripe)': on/off, the publishable key, and the write-only secret key and webhook
 * secret (blank keeps, Clear removes), saved with PUT /api/admin/payments/card.
 */
export function CardPaymentSettingsForm({ settings: initial }: { settings: CardPaymentSettings }) {
  const [settings, setSettings] = useState(initial);
  const [values, setValues] = useState<CardPaymentFormValues>(() => valuesFromCardSettings(initial));
  const { _ } = useLingui();
  const { fields, alert, saving, save } = useProviderSettingsSave<CardPaymentSettings>({ updated: _('adminSettings.card.updated') }, (error) =>
    saveErrorMessage(error, _('adminSettings.card.failed')),
  );
  const update = (changes: Partial<CardPaymentFormValues>) => setValues((current) => ({ ...current, ...changes }));
  const publishableEnv = envVarFor(settings, 'publishableKey');

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await save(
      () => adminApi.payments.updateCard(toCardSettingsUpdate(values, settings.sources)),
      (saved) => {
        setSettings(saved);
        setValues(valuesFromCardSettings(saved));
      },
    );
  }

  return (
    <SettingsSection title={_('adminSettings.card.title')}>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4" autoComplete="off">
        {alert && <AlertBox reveal>{alert}</AlertBox>}
        <CheckboxField
          label={_('adminSettings.card.enabled')}
          checked={values.enabled}
          onCheckedChange={(enabled) => update({ enabled })}
          hint={_('adminSettings.card.enabledHint')}
        />
        <TextField
          label={_('adminSettings.card.publishableKey')}
          value={publishableEnv ? (settings.publishableKey ?? '') : values.publishableKey}
          onValueChange={(publishableKey) => update({ publishableKey })}
          readOnly={publishableEnv !== null}
          placeholder="pk_…"
          autoComplete="off"
          spellCheck={false}
          hint={publishableEnv ? _('adminSettings.envVar', { envVar: publishableEnv }) : _('adminSettings.card.publishableKeyHint')}
          error={fields.publishableKey}
        />
        {SECRET_FIELDS.map(({ name, labelId, hintId, clearId, isSet }) => (
          <SecretKeyField
            key={name}
            label={_(labelId)}
            clearLabel={_(clearId)}
            input={values[name]}
            onInputChange={(input) => update({ [name]: input })}
            isSet={isSet(settings)}
            envVar={envVarFor(settings, name)}
            hint={_(hintId)}
            error={fields[name]}
          />
        ))}
        <WebhookUrlField url={settings.webhookUrl} what="Stripe" note={_('adminSettings.card.webhookNote')} />
        <div className="flex justify-end pt-2">
          {/* aria-disabled, not disabled: a disabled button would drop the keyboard focus. */}
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.card.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
