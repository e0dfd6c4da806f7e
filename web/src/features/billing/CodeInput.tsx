import type { InputHTMLAttributes } from 'react';

/** The customer-facing text field look (payment and gift dialogs). */
export const CODE_FIELD_CLASS =
  'block w-full min-w-0 rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none';

type CodeInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> & {
  id: string;
  value: string;
  onValueChange: (value: string) => void;
  /** The id of the error text under it, when there is one. */
  errorId?: string;
};

/**
 * A code the customer types from a message or a card (promo code, gift code): left to right in every language,
 * in capitals, no autocomplete or spelling marks; its error is tied to it for screen readers.
 */
export function CodeInput({ id, value, onValueChange, errorId, className = '', ...inputProps }: CodeInputProps) {
  return (
    <input
      {...inputProps}
      id={id}
      value={value}
      onChange={(event) => onValueChange(event.target.value)}
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      maxLength={40}
      dir="ltr"
      aria-invalid={errorId ? true : undefined}
      aria-describedby={errorId}
      className={`${CODE_FIELD_CLASS} uppercase ${className}`}
    />
  );
}
