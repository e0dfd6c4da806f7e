import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import { CARD_PRIORITY, type YookassaPaymentSettings } from '../../../../shared/billing.js';
import type { UpdateYookassaPaymentBody } from '../../../../shared/billing-schemas.js';
import { isApiError } from '../../api';
import { adminApi } from '../../api/admin-endpoints';
import { AlertBox } from './AlertBox';
import { buttonClass } from './admin-ui';
import { secretChange, type SecretInput } from './card-payment-form';
import { CheckboxField, SelectField, TextField } from './form-fields';
import { SecretKeyField } from './SecretKeyField';
import { SettingsSection } from './SettingsSection';
import { useProviderSettingsSave } from './useProviderSettingsSave';
import { WebhookUrlField } from './WebhookUrlField';

const EMPTY_SECRET: SecretInput = { value: '', clear: false };
/** YooKassa's VAT codes (54-FZ) and tax systems, as its documentation numbers them. */
const VAT_CODES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12] as const;
const TAX_SYSTEMS = [1, 2, 3, 4, 5, 6] as const;

interface YookassaFormValues {
  enabled: boolean;
  shopId: string;
  secretKey: SecretInput;
  receipts: boolean;
  vatCode: string;
  taxSystemCode: string;
  yookassaFirst: boolean;
}

const valuesFrom = (settings: YookassaPaymentSettings): YookassaFormValues => ({
  enabled: settings.enabled,
  shopId: settings.shopId ?? '',
  secretKey: EMPTY_SECRET,
  receipts: settings.receipts.enabled,
  vatCode: String(settings.receipts.vatCode),
  taxSystemCode: settings.receipts.taxSystemCode ? String(settings.receipts.taxSystemCode) : '',
  yookassaFirst: settings.priority > CARD_PRIORITY,
});

function toUpdate(values: YookassaFormValues): UpdateYookassaPaymentBody {
  const update: UpdateYookassaPaymentBody = {
    enabled: values.enabled,
    priority: values.yookassaFirst ? CARD_PRIORITY + 50 : CARD_PRIORITY - 30,
    receipts: { enabled: values.receipts, vatCode: Number(values.vatCode), taxSystemCode: values.taxSystemCode ? Number(values.taxSystemCode) : null },
  };
  if (values.shopId.trim()) update.shopId = values.shopId.trim();
  const secretKey = secretChange(values.secretKey);
  if (secretKey !== undefined) update.secretKey = secretKey;
  return update;
}

/**
 * 'YooKassa (roubles: cards and SBP)': the shop id, the write-only secret key, 54-FZ receipts, on/off, and whether
 * it is offered before card. New keys are checked by reading the shop (PUT /api/admin/payments/yookassa). Offered
 * to customers only while the store sells in roubles: the form says so otherwise.
 */
export function YookassaPaymentSettingsForm({ settings: initial }: { settings: YookassaPaymentSettings }) {
  const [settings, setSettings] = useState(initial);
  const [values, setValues] = useState<YookassaFormValues>(() => valuesFrom(initial));
  const { _ } = useLingui();
  const { fields, alert, saving, save } = useProviderSettingsSave<YookassaPaymentSettings>({ updated: _('adminSettings.yookassa.updated') }, (err) =>
    isApiError(err) && err.message ? err.message : _('adminSettings.yookassa.failed'),
  );
  const update = (changes: Partial<YookassaFormValues>) => setValues((current) => ({ ...current, ...changes }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await save(
      () => adminApi.payments.updateYookassa(toUpdate(values)),
      (saved) => {
        setSettings(saved);
        setValues(valuesFrom(saved));
      },
    );
  }

  return (
    <SettingsSection title={_('adminSettings.yookassa.title')}>
      <p className="mt-1 text-sm text-slate-600">{_('adminSettings.yookassa.intro')}</p>
      {!settings.currencySupported && (
        <p role="note" className="mt-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          {_('adminSettings.yookassa.currencyNote')}
        </p>
      )}
      {settings.shop?.test && <p className="mt-3 text-sm text-amber-800">{_('adminSettings.yookassa.testShop')}</p>}
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4" autoComplete="off">
        {alert && <AlertBox reveal>{alert}</AlertBox>}
        <CheckboxField
          label={_('adminSettings.yookassa.enabled')}
          checked={values.enabled}
          onCheckedChange={(enabled) => update({ enabled })}
          hint={_('adminSettings.yookassa.enabledHint')}
        />
        <TextField
          label={_('adminSettings.yookassa.shopId')}
          value={values.shopId}
          onValueChange={(shopId) => update({ shopId })}
          inputMode="numeric"
          spellCheck={false}
          error={fields.shopId}
          hint={_('adminSettings.yookassa.shopIdHint')}
        />
        <SecretKeyField
          label={_('adminSettings.yookassa.secretKey')}
          clearLabel={_('adminSettings.yookassa.secretKeyClear')}
          input={values.secretKey}
          onInputChange={(secretKey) => update({ secretKey })}
          isSet={settings.secretKeySet}
          envVar={null}
          hint={_('adminSettings.yookassa.secretKeyHint')}
          error={fields.secretKey}
        />
        <WebhookUrlField url={settings.webhookUrl} what="YooKassa" note={_('adminSettings.yookassa.webhookNote')} />
        <CheckboxField
          label={_('adminSettings.yookassa.receipts')}
          checked={values.receipts}
          onCheckedChange={(receipts) => update({ receipts })}
          hint={fields.receipts ?? _('adminSettings.yookassa.receiptsHint')}
        />
        {values.receipts && (
          <div className="grid gap-4 sm:grid-cols-2">
            <SelectField
              label={_('adminSettings.yookassa.vatCode')}
              value={values.vatCode}
              onValueChange={(vatCode) => update({ vatCode })}
              error={fields['receipts.vatCode']}
            >
              {VAT_CODES.map((code) => (
                <option key={code} value={code}>
                  {_(`adminSettings.yookassa.vat${code}`)}
                </option>
              ))}
            </SelectField>
            <SelectField
              label={_('adminSettings.yookassa.taxSystem')}
              value={values.taxSystemCode}
              onValueChange={(taxSystemCode) => update({ taxSystemCode })}
              error={fields['receipts.taxSystemCode']}
            >
              <option value="">{_('adminSettings.yookassa.taxSystemNone')}</option>
              {TAX_SYSTEMS.map((code) => (
                <option key={code} value={code}>
                  {_(`adminSettings.yookassa.tax${code}`)}
                </option>
              ))}
            </SelectField>
          </div>
        )}
        <CheckboxField
          label={_('adminSettings.yookassa.first')}
          checked={values.yookassaFirst}
          onCheckedChange={(yookassaFirst) => update({ yookassaFirst })}
          hint={_('adminSettings.yookassa.firstHint')}
        />
        <div className="flex justify-end pt-2">
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.yookassa.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
