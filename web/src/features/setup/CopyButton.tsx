import { useLingui } from '@lingui/react';
import { useEffect, useState } from 'react';
import { useCopyWithToast } from '../accounts/useCopyWithToast';

const CONFIRMATION_MS = 2500;

interface CopyButtonProps {
  text: string;
  /** The toast's message; also said inside the dialog, since the page behind a modal is inert. */
  successMessage: string;
  label: string;
  /** Extra words for screen readers, e.g. which configuration. */
  srDetail?: string;
  className: string;
}

/** A copy button for use inside a dialog: it shows and announces "Copied" itself. */
export function CopyButton({ text, successMessage, label, srDetail, className }: CopyButtonProps) {
  const { _ } = useLingui();
  const copy = useCopyWithToast();
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function onClick() {
    setCopied(false);
    setCopied(await copy(text, successMessage));
  }

  return (
    <>
      <button type="button" onClick={() => void onClick()} className={className}>
        {copied ? _('account.copy.copied') : label}
        {srDetail && <span className="sr-only"> {srDetail}</span>}
      </button>
      <span role="status" className="sr-only">
        {copied ? successMessage : ''}
      </span>
    </>
  );
}
