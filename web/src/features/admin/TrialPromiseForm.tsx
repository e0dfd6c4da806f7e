import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import type { AdminSettings } from '../../../../shared/app-settings.js';
import { buttonClass } from './admin-ui';
import { CheckboxField } from './form-fields';
import { useSettingsSave } from './useSettingsSave';
import { SettingsSection } from './SettingsSection';

/**
 * 'Free trial on the public pages': whether the landing page, the pricing page and the rest promise a free trial.
 * They do only while a trial plan is on sale (the trial plan is chosen above); switched off, they never mention one.
 */
export function TrialPromiseForm({ settings }: { settings: Pick<AdminSettings, 'trialPromise'> }) {
  const { _ } = useLingui();
  const [promise, setPromise] = useState(settings.trialPromise);
  const { saving, save } = useSettingsSave({ updated: _('adminSettings.trialPromise.updated'), updateFailed: _('adminSettings.updateFailed') });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await save({ trialPromise: promise }, {}, (saved) => setPromise(saved.trialPromise));
  }

  return (
    <SettingsSection title={_('adminSettings.trialPromise.title')}>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        <CheckboxField
          label={_('adminSettings.trialPromise.label')}
          checked={promise}
          onCheckedChange={setPromise}
          hint={_('adminSettings.trialPromise.hint')}
        />
        <div className="flex justify-end pt-2">
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? _('adminSettings.saving') : _('adminSettings.trialPromise.save')}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}
