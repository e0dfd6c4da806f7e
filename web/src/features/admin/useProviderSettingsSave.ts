import { useState } from 'react';
import { useToast } from '../toast/toast-context';
import { fieldErrors } from './admin-errors';

/**
 * The save of a payment provider's settings form (card, crypto): one save at a time, the server's
 * message in an alert over the form and its field errors under the fields, a toast once saved.
 */
export function useProviderSettingsSave<T>(messages: { updated: string }, describeError: (error: unknown) => string) {
  const toast = useToast();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [alert, setAlert] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function save(request: () => Promise<T>, onSaved: (saved: T) => void): Promise<void> {
    if (saving) return;
    setSaving(true);
    setFields({});
    setAlert(null);
    try {
      const saved = await request();
      toast.success(messages.updated);
      onSaved(saved);
    } catch (err) {
      setAlert(describeError(err));
      setFields(fieldErrors(err));
    } finally {
      setSaving(false);
    }
  }

  return { fields, alert, saving, save };
}
