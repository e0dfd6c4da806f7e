import { useLingui } from '@lingui/react';
import { useState } from 'react';
import type { TelegramLinkStatus, TelegramPreferences as Choices } from '../../../../shared/telegram.js';
import { telegramLinkApi } from '../../api/telegram-link-endpoints';
// The admin forms' checkbox, with its label and hint tied to it (a small module: no admin page comes with it).
import { CheckboxField } from '../admin/form-fields';

type Saving = 'idle' | 'saving' | 'saved' | 'failed';

/**
 * A linked customer's choices in the dashboard's Telegram dialog: notices by Telegram only (no e-mails while the bot
 * reaches them), and sign-in codes to Telegram too. Each tick is saved at once (`PATCH /api/me/telegram/preferences`);
 * a failed save puts the box back and says so.
 */
export function TelegramPreferences({ preferences, onSaved }: { preferences: Choices; onSaved: (status: TelegramLinkStatus) => void }) {
  const { _ } = useLingui();
  const [choices, setChoices] = useState(preferences);
  const [saving, setSaving] = useState<Saving>('idle');

  async function change(choice: keyof Choices, value: boolean) {
    const before = choices;
    setChoices({ ...before, [choice]: value });
    setSaving('saving');
    try {
      const status = await telegramLinkApi.updatePreferences({ [choice]: value });
      if (status.preferences) setChoices(status.preferences);
      setSaving('saved');
      onSaved(status);
    } catch {
      setChoices(before);
      setSaving('failed');
    }
  }

  return (
    <fieldset className="space-y-3 border-t border-slate-200 pt-4">
      <legend className="sr-only">{_('account.telegram.choices')}</legend>
      <CheckboxField
        label={_('account.telegram.noticesOnly')}
        hint={_('account.telegram.noticesOnlyHint')}
        checked={!choices.noticesByEmail}
        disabled={saving === 'saving'}
        onCheckedChange={(checked) => void change('noticesByEmail', !checked)}
      />
      <CheckboxField
        label={_('account.telegram.codesToo')}
        checked={choices.codesByTelegram}
        disabled={saving === 'saving'}
        onCheckedChange={(checked) => void change('codesByTelegram', checked)}
      />
      <p aria-live="polite" className={saving === 'failed' ? 'text-sm text-red-700' : 'text-sm text-slate-500'}>
        {saving === 'saving'
          ? _('account.telegram.saving')
          : saving === 'saved'
            ? _('account.telegram.saved')
            : saving === 'failed'
              ? _('account.telegram.saveFailed')
              : ''}
      </p>
    </fieldset>
  );
}
