import { useLingui } from '@lingui/react';
import { CheckboxField, TextField } from './form-fields';
import type { SecretInput } from './card-payment-form';

interface SecretKeyFieldProps {
  label: string;
  /** The label of the checkbox that removes the saved key ('Clear the saved secret key'). */
  clearLabel: string;
  input: SecretInput;
  onInputChange: (input: SecretInput) => void;
  /** Whether a value is saved now (the value itself never comes back). */
  isSet: boolean;
  /** The environment variable's name when it overrides this key: the field is then read-only. */
  envVar: string | null;
  hint?: string;
  error?: string;
}

/**
 * A write-only key: a password input that starts empty (empty keeps the saved key), with a 'Clear'
 * checkbox to remove a saved one. Read-only with a note when an environment variable sets it.
 */
export function SecretKeyField({ label, clearLabel, input, onInputChange, isSet, envVar, hint, error }: SecretKeyFieldProps) {
  const { _ } = useLingui();
  if (envVar) {
    return (
      <TextField
        label={label}
        type="password"
        value=""
        onValueChange={() => undefined}
        readOnly
        placeholder={isSet ? '••••••••' : _('adminSettings.secretKey.notSet')}
        hint={_('adminSettings.envVar', { envVar })}
      />
    );
  }
  return (
    <div className="space-y-2">
      <TextField
        label={label}
        type="password"
        value={input.value}
        onValueChange={(value) => onInputChange({ value, clear: false })}
        disabled={input.clear}
        autoComplete="off"
        spellCheck={false}
        placeholder={isSet ? _('adminSettings.secretKey.setPlaceholder') : _('adminSettings.secretKey.notSet')}
        hint={hint}
        error={error}
      />
      {isSet && <CheckboxField label={clearLabel} checked={input.clear} onCheckedChange={(clear) => onInputChange({ value: '', clear })} />}
    </div>
  );
}
