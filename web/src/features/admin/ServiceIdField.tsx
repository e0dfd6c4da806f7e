import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { isApiError } from '../../api';
import type { PanelService } from '../../api/admin-endpoints';
import { AlertBox } from './AlertBox';
import { buttonClass } from './admin-ui';
import { errorMessage } from './admin-errors';
import type { PanelKindName } from '../../../../shared/servers.js';
import { CheckboxField, SelectField, TextField } from './form-fields';

/** What each kind calls the part of the panel a new user is put in. */
const LABELS: Record<PanelKindName, { label: string; hint: string; found: string }> = {
  marzneshin: { label: 'admin.serviceId.label', hint: 'admin.serviceId.hint', found: 'admin.serviceId.found' },
  marzban: { label: 'admin.serviceId.labelMarzban', hint: 'admin.serviceId.hintMarzban', found: 'admin.serviceId.foundMarzban' },
  remnawave: { label: 'admin.serviceId.labelRemnawave', hint: 'admin.serviceId.hintRemnawave', found: 'admin.serviceId.foundRemnawave' },
  pasarguard: { label: 'admin.serviceId.labelPasarguard', hint: 'admin.serviceId.hintPasarguard', found: 'admin.serviceId.foundPasarguard' },
};

const splitIds = (value: string) =>
  value
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);

interface ServiceIdFieldProps {
  kind: PanelKindName;
  /** Several of the panel's services may be chosen (stored comma-separated). */
  multiple: boolean;
  value: string;
  onChange: (serviceId: string) => void;
  error?: string;
  disabled: boolean;
  /** Runs the credential test and returns the panel's services (throws a user-facing message on bad input). */
  loadServices: () => Promise<PanelService[]>;
  /** May be left empty (a plan's squads on a server: empty is the server's own, `fallback`). */
  optional?: { fallback: string };
  /** The button's words (default "Test connection"). */
  loadLabel?: string;
}

/**
 * "Test connection", then the panel's services in a select. Before a test (or when the panel has
 * none) the service ID is typed by hand. The parent remounts this when the connection changes.
 */
export function ServiceIdField({ kind, multiple, value, onChange, error, disabled, loadServices, optional, loadLabel }: ServiceIdFieldProps) {
  const { _ } = useLingui();
  const [services, setServices] = useState<PanelService[] | null>(null);
  const [testing, setTesting] = useState(false);
  const [testError, setTestError] = useState<string | null>(null);

  async function testConnection() {
    setTesting(true);
    setTestError(null);
    try {
      const found = await loadServices();
      setServices(found);
      if (!optional && !value && found.length === 1 && found[0]) onChange(found[0].id);
    } catch (err) {
      setServices(null);
      const isOwnCheck = !isApiError(err) && err instanceof Error;
      setTestError(isOwnCheck ? err.message : errorMessage(err, _('admin.serviceId.testFailed')));
    } finally {
      setTesting(false);
    }
  }

  const canPick = services !== null && services.length > 0;
  const unknownValue = canPick && value !== '' && !services.some((service) => service.id === value);
  const labels = LABELS[kind];
  const chosen = splitIds(value);
  const toggle = (id: string, checked: boolean) => onChange((checked ? [...chosen, id] : chosen.filter((other) => other !== id)).join(','));

  return (
    <div className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3">
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" onClick={() => void testConnection()} disabled={disabled || testing} className={buttonClass.secondary}>
          {testing ? _('admin.serviceId.testing') : (loadLabel ?? _('admin.serviceId.test'))}
        </button>
        {services !== null && (
          <p role="status" className="text-sm text-emerald-800">
            {_(LABELS[kind].found, { count: services.length })}
          </p>
        )}
      </div>
      {testError && <AlertBox>{testError}</AlertBox>}
      {canPick && multiple ? (
        <fieldset className="space-y-2" aria-describedby={error ? 'service-ids-error' : undefined}>
          <legend className="text-sm font-medium text-slate-700">{_(labels.label)}</legend>
          {optional && <p className="text-xs text-slate-500">{_('admin.serviceId.optionalHint', { id: optional.fallback })}</p>}
          {services.map((service) => (
            <CheckboxField
              key={service.id}
              label={`${service.name} (${service.id})`}
              checked={chosen.includes(service.id)}
              onCheckedChange={(checked) => toggle(service.id, checked)}
              disabled={disabled}
            />
          ))}
          {chosen
            .filter((id) => !services.some((service) => service.id === id))
            .map((id) => (
              <CheckboxField key={id} label={_('admin.serviceId.notOnPanel', { id })} checked onCheckedChange={() => toggle(id, false)} disabled={disabled} />
            ))}
          {error && (
            <p id="service-ids-error" className="text-sm text-red-700">
              {error}
            </p>
          )}
        </fieldset>
      ) : canPick ? (
        <SelectField label={_(labels.label)} value={value} onValueChange={onChange} error={error} required={!optional} disabled={disabled}>
          <option value="">{optional ? _('admin.serviceId.serverOwn', { id: optional.fallback }) : _('admin.serviceId.select')}</option>
          {unknownValue && <option value={value}>{_('admin.serviceId.notOnPanel', { id: value })}</option>}
          {services.map((service) => (
            <option key={service.id} value={service.id}>
              {service.name} ({service.id})
            </option>
          ))}
        </SelectField>
      ) : (
        <TextField
          label={_(labels.label)}
          value={value}
          onValueChange={onChange}
          error={error}
          hint={optional ? _('admin.serviceId.optionalHint', { id: optional.fallback }) : _(labels.hint)}
          placeholder={optional?.fallback}
          required={!optional}
          maxLength={400}
          disabled={disabled}
        />
      )}
    </div>
  );
}
