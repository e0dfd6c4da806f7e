import { useState, type FormEvent } from 'react';
import type { AdminSettings } from '../../../../shared/app-settings.js';
import type { AdminServer } from '../../../../shared/servers.js';
import { adminApi } from '../../api/admin-endpoints';
import { buttonClass } from './admin-ui';
import { CheckboxField, TextField } from './form-fields';
import { useSettingsSave } from './useSettingsSave';
import { SettingsSection } from './SettingsSection';
import { useAdminResource } from './useAdminResource';

const MESSAGES = {
  updated: 'Site content updated',
  updateFailed: 'Failed to update settings',
} as const;

/**
 * 'Site content': what the public pages claim about the service, so they never promise more than the
 * operator runs: the number of locations, and whether threat protection and ad blocking are offered.
 * The brand and support address are in General; each server's public region name is on the server.
 */
export function SiteContentSettingsForm({ settings }: { settings: Pick<AdminSettings, 'locationsClaim' | 'protectionFeatures'> }) {
  const [locations, setLocations] = useState(settings.locationsClaim);
  const [protection, setProtection] = useState(settings.protectionFeatures);
  const { fields, saving, save } = useSettingsSave(MESSAGES);
  const { data: servers } = useAdminResource(adminApi.servers.list, 0);
  const regions = publicRegions(servers ?? []);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    await save({ locationsClaim: locations.trim(), protectionFeatures: protection }, {}, (saved) => {
      setLocations(saved.locationsClaim);
      setProtection(saved.protectionFeatures);
    });
  }

  return (
    <SettingsSection title="Site content">
      <p className="mt-1 text-sm text-slate-600">What the public pages say about your service. Keep it true to what you run.</p>
      <form onSubmit={(event) => void onSubmit(event)} className="mt-4 space-y-4">
        <TextField
          label="Number of locations"
          value={locations}
          onValueChange={setLocations}
          error={fields.locationsClaim}
          maxLength={12}
          hint='Shown as "50+ Global Locations" and "servers in 50+ locations". A number, optionally with +, e.g. 12 or 50+.'
          required
        />
        {regions.length > 0 && (
          <p className="-mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-600">
            <span>
              Your enabled servers are in {regions.length} {regions.length === 1 ? 'region' : 'regions'}: {regions.join(', ')}.
            </span>
            {locations.trim() !== String(regions.length) && (
              <button type="button" onClick={() => setLocations(String(regions.length))} className="font-semibold text-indigo-700 underline">
                Use {regions.length}
              </button>
            )}
          </p>
        )}
        <CheckboxField
          label="Offer threat protection and ad blocking"
          checked={protection}
          onCheckedChange={setProtection}
          hint="Turn off if your servers do not filter malicious sites and ads: the Threat Protection page and its menu links disappear."
        />
        <div className="flex justify-end pt-2">
          <button type="submit" aria-disabled={saving} className={`${buttonClass.primary} aria-disabled:opacity-60`}>
            {saving ? 'Saving...' : 'Save site content'}
          </button>
        </div>
      </form>
    </SettingsSection>
  );
}

/** The distinct public region names of the enabled servers (a server without one counts as its own location). */
function publicRegions(servers: readonly AdminServer[]): string[] {
  const enabled = servers.filter((server) => server.status === 'active');
  return [...new Set(enabled.map((server) => server.publicName ?? server.name))].sort((a, b) => a.localeCompare(b));
}
