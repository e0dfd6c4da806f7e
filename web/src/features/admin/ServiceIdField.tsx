import { useLingui } from '@lingui/react';
import { useState } from 'react';
import { isApiError } from '../../api';
import type { PanelService } from '../../api/admin-endpoints';
import { AlertBox } from './AlertBox';
import { buttonClass } from './admin-ui';
import { errorMessage } from './admin-errors';
import { SelectField, TextField } from './form-fields';

interface ServiceIdFieldProps {
  value: string;
  onChange: (serviceId: string) => void;
  error?: string;
  disabled: boolean;
  /** Runs the credential test and returns the panel's services (throws a user-facing message on bad input). */
  loadServices: () => Promise<PanelService[]>;
}

/**
 * "Test connection", then the panel's services in a select. Before a test (or when the panel has
 * none) the service ID is typed by hand. The parent remounts this when the connection changes.
 */
export function ServiceIdField({ value, onChange, error, disabled, loadServices }: ServiceIdFieldProps) {
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
      if (!value && found.length === 1 && found[0]) onChange(found[0].id);
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

  return (
    <div className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3">
      <div className="flex flex-wrap items-center gap-3">
        <button type="button" onClick={() => void testConnection()} disabled={disabled || testing} className={buttonClass.secondary}>
          {testing ? _('admin.serviceId.testing') : _('admin.serviceId.test')}
        </button>
        {services !== null && (
          <p role="status" className="text-sm text-emerald-800">
            {_('admin.serviceId.found', { count: services.length })}
          </p>
        )}
      </div>
      {testError && <AlertBox>{testError}</AlertBox>}
      {canPick ? (
        <SelectField label={_('admin.serviceId.label')} value={value} onValueChange={onChange} error={error} required disabled={disabled}>
          <option value="">{_('admin.serviceId.select')}</option>
          {unknownValue && <option value={value}>{_('admin.serviceId.notOnPanel', { id: value })}</option>}
          {services.map((service) => (
            <option key={service.id} value={service.id}>
              {service.name} ({service.id})
            </option>
          ))}
        </SelectField>
      ) : (
        <TextField
          label={_('admin.serviceId.label')}
          value={value}
          onValueChange={onChange}
          error={error}
          hint={_('admin.serviceId.hint')}
          required
          maxLength={64}
          disabled={disabled}
        />
      )}
    </div>
  );
}
