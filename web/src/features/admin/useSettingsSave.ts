import { useState } from 'react';
import type { AdminSettings, UpdateSettingsBody } from '../../../../shared/app-settings.js';
import { adminApi } from '../../api/admin-endpoints';
import { useToast } from '../toast/toast-context';
import { errorMessage, fieldErrors } from './admin-errors';

/**
 * The save of one Settings section (PUT /api/admin/settings): one save at a time, field errors from the
 * form's own checks or from the server, a toast either way, and the saved settings back to the form.
 */
export function useSettingsSave(messages: { updated: string; updateFailed: string }) {
  const toast = useToast();
  const [fields, setFields] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  /** `invalid`: the form's own field errors (nothing is sent while there are any). */
  async function save(patch: UpdateSettingsBody, invalid: Record<string, string>, onSaved: (saved: AdminSettings) => void): Promise<void> {
    if (saving) return;
    if (Object.keys(invalid).length > 0) {
      setFields(invalid);
      return;
    }
    setSaving(true);
    setFields({});
    try {
      const saved = await adminApi.settings.update(patch);
      toast.success(messages.updated);
      onSaved(saved);
    } catch (err) {
      toast.error(errorMessage(err, messages.updateFailed));
      setFields(fieldErrors(err));
    } finally {
      setSaving(false);
    }
  }

  return { fields, saving, save };
}

/** A whole number of days typed in a field, or null when it is not one from `min` to `max`. */
export function parseDays(text: string, min: number, max: number): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const days = Number(text);
  return days >= min && days <= max ? days : null;
}
