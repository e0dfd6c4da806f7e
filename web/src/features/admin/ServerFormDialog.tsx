import { useLingui } from '@lingui/react';
import { useState, type FormEvent } from 'react';
import { PANEL_KINDS, usesApiToken, type AdminServer } from '../../../../shared/servers.js';
import { adminApi, type PanelService } from '../../api/admin-endpoints';
import { AlertBox } from './AlertBox';
import { buttonClass } from './admin-ui';
import { errorMessage, fieldErrors } from './admin-errors';
import { Dialog } from './Dialog';
import { CheckboxField, SelectField, TextField } from './form-fields';
import {
  MULTI_SERVICE_KINDS,
  NEW_SERVER_VALUES,
  PANEL_KIND_LABELS,
  connectionChanged,
  toCreateServerBody,
  typedSecret,
  toUpdateServerBody,
  valuesFromServer,
  type ServerFormValues,
} from './server-form';
import { ServiceIdField } from './ServiceIdField';
import { RegionNameTranslationsFields } from './RegionNameTranslationsFields';

/** Message ids (admin catalogue). */
export const SERVER_FORM_MESSAGES = {
  addFailed: 'admin.serverForm.addFailed',
  updateFailed: 'admin.serverForm.updateFailed',
} as const;

interface ServerFormDialogProps {
  /** The server being edited, or null to add one. */
  server: AdminServer | null;
  onClose: () => void;
  onSaved: (server: AdminServer) => void;
}

/** Add or edit a master server. Saving runs the credential test on the server side. */
export function ServerFormDialog({ server, onClose, onSaved }: ServerFormDialogProps) {
  const { _ } = useLingui();
  const [values, setValues] = useState<ServerFormValues>(() => (server ? valuesFromServer(server) : NEW_SERVER_VALUES));
  const [formError, setFormError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const set =
    <K extends keyof ServerFormValues>(key: K) =>
    (value: ServerFormValues[K]) =>
      setValues((current) => ({ ...current, [key]: value }));

  const tokenPanel = usesApiToken(values.kind);

  async function loadServices(): Promise<PanelService[]> {
    setFormError(null);
    const body = toCreateServerBody(values);
    if (server && !typedSecret(values)) {
      if (connectionChanged(values, server)) throw new Error(_(tokenPanel ? 'admin.serverForm.tokenToTest' : 'admin.serverForm.passwordToTest'));
      return adminApi.servers.listServices(server.id);
    }
    const complete = tokenPanel ? Boolean(body.url && body.apiToken) : Boolean(body.url && body.username && body.password);
    if (!complete) throw new Error(_(tokenPanel ? 'admin.serverForm.fillInTokenFirst' : 'admin.serverForm.fillInFirst'));
    // With a service ID already typed, the test also says whether this panel admin may assign it.
    const { kind, url, username, password, apiToken, serviceId } = body;
    return (await adminApi.servers.testConnection({ kind, url, username, password, apiToken, serviceId })).services;
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaving(true);
    setFormError(null);
    setFields({});
    try {
      const saved = server
        ? await adminApi.servers.update(server.id, toUpdateServerBody(values, server))
        : await adminApi.servers.create(toCreateServerBody(values));
      onSaved(saved);
    } catch (err) {
      setFormError(errorMessage(err, _(server ? SERVER_FORM_MESSAGES.updateFailed : SERVER_FORM_MESSAGES.addFailed)));
      setFields(fieldErrors(err));
      setSaving(false);
    }
  }

  return (
    <Dialog title={server ? _('admin.serverForm.editTitle', { name: server.name }) : _('admin.serverForm.addTitle')} onClose={() => !saving && onClose()}>
      <form onSubmit={(event) => void onSubmit(event)} className="space-y-4">
        {formError && <AlertBox reveal>{formError}</AlertBox>}
        <SelectField
          label={_('admin.serverForm.kind')}
          value={values.kind}
          onValueChange={(kind) => set('kind')(kind as ServerFormValues['kind'])}
          error={fields.kind}
          disabled={saving}
        >
          {PANEL_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {PANEL_KIND_LABELS[kind]}
            </option>
          ))}
        </SelectField>
        <TextField
          label={_('admin.serverForm.name')}
          value={values.name}
          onValueChange={set('name')}
          error={fields.name}
          required
          maxLength={120}
          disabled={saving}
        />
        <TextField
          label={_('admin.serverForm.publicName')}
          value={values.publicName}
          onValueChange={set('publicName')}
          error={fields.publicName}
          hint={_('admin.serverForm.publicNameHint')}
          maxLength={60}
          disabled={saving}
        />
        <RegionNameTranslationsFields
          publicName={values.publicName}
          values={values.publicNameTranslations}
          onChange={(locale, name) => setValues((current) => ({ ...current, publicNameTranslations: { ...current.publicNameTranslations, [locale]: name } }))}
          fields={fields}
          disabled={saving}
        />
        <TextField
          label={_('admin.serverForm.url')}
          type="url"
          value={values.url}
          onValueChange={set('url')}
          error={fields.url}
          placeholder="https://panel.example.com:8443"
          required
          maxLength={500}
          disabled={saving}
        />
        {tokenPanel ? (
          <TextField
            label={_('admin.serverForm.apiToken')}
            type="password"
            value={values.apiToken}
            onValueChange={set('apiToken')}
            error={fields.apiToken}
            hint={server?.kind === values.kind ? _('admin.serverForm.apiTokenKeepHint') : _('admin.serverForm.apiTokenHint')}
            required={server?.kind !== values.kind}
            autoComplete="off"
            disabled={saving}
          />
        ) : null}
        {tokenPanel && (
          <TextField
            label={_('admin.serverForm.apiTokenExpiresAt')}
            type="date"
            value={values.apiTokenExpiresAt}
            onValueChange={set('apiTokenExpiresAt')}
            error={fields.apiTokenExpiresAt}
            hint={_('admin.serverForm.apiTokenExpiresAtHint')}
            disabled={saving}
          />
        )}
        {tokenPanel ? null : (
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              label={_('admin.serverForm.username')}
              value={values.username}
              onValueChange={set('username')}
              error={fields.username}
              required
              autoComplete="off"
              disabled={saving}
            />
            <TextField
              label={_('admin.serverForm.password')}
              type="password"
              value={values.password}
              onValueChange={set('password')}
              error={fields.password}
              hint={server && !usesApiToken(server.kind) ? _('admin.serverForm.passwordHint') : undefined}
              required={!server || usesApiToken(server.kind)}
              autoComplete="new-password"
              disabled={saving}
            />
          </div>
        )}
        <ServiceIdField
          // A new connection means the listed services may no longer apply: start the field afresh.
          key={`${values.kind} ${values.url} ${values.username}`}
          kind={values.kind}
          multiple={MULTI_SERVICE_KINDS.includes(values.kind)}
          value={values.serviceId}
          onChange={set('serviceId')}
          error={fields.serviceId}
          disabled={saving}
          loadServices={loadServices}
        />
        <TextField
          label={_('admin.serverForm.locations')}
          value={values.locations}
          onValueChange={set('locations')}
          error={fields.locations}
          hint={_('admin.serverForm.locationsHint')}
          required
          maxLength={500}
          disabled={saving}
        />
        <CheckboxField
          label={_('admin.serverForm.premium')}
          checked={values.premium}
          onCheckedChange={set('premium')}
          hint={_('admin.serverForm.premiumHint')}
          disabled={saving}
        />
        <div className="flex flex-wrap justify-end gap-3 pt-2">
          <button type="button" onClick={onClose} disabled={saving} className={buttonClass.secondary}>
            {_('admin.common.cancel')}
          </button>
          <button type="submit" disabled={saving} className={buttonClass.primary}>
            {saving ? _('admin.common.saving') : server ? _('admin.common.saveChanges') : _('admin.servers.add')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
