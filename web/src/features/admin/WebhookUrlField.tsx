import { useLingui } from '@lingui/react';
import { useId } from 'react';
import { CopyButton } from '../setup/CopyButton';
import { buttonClass, inputClass } from './admin-ui';

/** The address to paste into a payment provider's settings as the webhook endpoint, with a copy button. */
export function WebhookUrlField({ url, what, note }: { url: string; what: string; note: string }) {
  const { _ } = useLingui();
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {_('adminSettings.webhookUrl.label')}
      </label>
      <div className="flex items-start gap-2">
        <input id={id} readOnly value={url} aria-describedby={`${id}-hint`} className={`${inputClass} font-mono text-sm`} />
        <CopyButton
          text={url}
          successMessage={_('adminSettings.webhookUrl.copied')}
          label={_('adminSettings.webhookUrl.copy')}
          srDetail={_('adminSettings.webhookUrl.srDetail', { what })}
          className={`${buttonClass.secondary} mt-1 shrink-0`}
        />
      </div>
      <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
        {note}
      </p>
    </div>
  );
}
