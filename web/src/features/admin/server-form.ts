import type { AdminServer, CreateServerBody, PanelKindName, UpdateServerBody } from '../../../../shared/servers.js';

/** What the Add/Edit server form holds; the password is write-only and starts empty on edit. */
export interface ServerFormValues {
  kind: PanelKindName;
  name: string;
  publicName: string;
  url: string;
  username: string;
  password: string;
  serviceId: string;
  locations: string;
}

export const PANEL_KIND_LABELS: Record<PanelKindName, string> = {
  marzneshin: 'Marzneshin',
  marzban: 'Marzban',
};

export const NEW_SERVER_VALUES: ServerFormValues = {
  kind: 'marzneshin',
  name: '',
  publicName: '',
  url: '',
  username: '',
  password: '',
  serviceId: '',
  locations: 'all',
};

export function valuesFromServer(server: AdminServer): ServerFormValues {
  const { kind, name, url, username, serviceId, locations } = server;
  return { kind, name, publicName: server.publicName ?? '', url, username, password: '', serviceId, locations };
}

export function toCreateServerBody(values: ServerFormValues): CreateServerBody {
  return {
    kind: values.kind,
    name: values.name.trim(),
    publicName: values.publicName.trim() || null,
    url: values.url.trim(),
    username: values.username.trim(),
    password: values.password,
    serviceId: values.serviceId.trim(),
    locations: values.locations.trim() || 'all',
  };
}

/** Only the fields that changed; the password only when one was typed. */
export function toUpdateServerBody(values: ServerFormValues, original: AdminServer): UpdateServerBody {
  const { password, ...next } = toCreateServerBody(values);
  const changes: UpdateServerBody = {};
  for (const key of Object.keys(next) as Array<keyof typeof next>) {
    if (next[key] !== original[key]) Object.assign(changes, { [key]: next[key] });
  }
  if (password) changes.password = password;
  return changes;
}

/** Whether the panel connection (not just the name or locations) differs from the saved server. */
export function connectionChanged(values: ServerFormValues, original: AdminServer): boolean {
  return values.kind !== original.kind || values.url.trim() !== original.url || values.username.trim() !== original.username;
}
