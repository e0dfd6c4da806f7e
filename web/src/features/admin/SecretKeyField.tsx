import { CheckboxField, TextField } from './form-fields';
import type { SecretInput } from './card-payment-form';

interface SecretKeyFieldProps {
  label: string;
  input: SecretInput;
  onInputChange: (input: SecretInput) => void;
  /** Whether a value is saved now (the value itself never comes back). */
  isSet: boolean;
  /** The environment variable's name when it overrides this key: the field is then read-only. */
  envVar: string | null;
  hint?: string;
  error?: string;
}

const SET_PLACEHOLDER = '•••••••• (set — leave blank to keep)';

/**
 * A write-only key: a password input that starts empty (empty keeps the saved key), with a 'Clear'
 * checkbox to remove a saved one. Read-only with a note when an environment variable sets it.
 */
export function SecretKeyField({ label, input, onInputChange, isSet, envVar, hint, error }: SecretKeyFieldProps) {
  if (envVar) {
    return (
      <TextField
        label={label}
        type="password"
        value=""
        onValueChange={() => undefined}
        readOnly
        placeholder={isSet ? '••••••••' : 'Not set'}
        hint={`Set by the ${envVar} environment variable`}
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
        placeholder={isSet ? SET_PLACEHOLDER : 'Not set'}
        hint={hint}
        error={error}
      />
      {isSet && (
        <CheckboxField
          label={`Clear the saved ${label.toLowerCase()}`}
          checked={input.clear}
          onCheckedChange={(clear) => onInputChange({ value: '', clear })}
        />
      )}
    </div>
  );
}
