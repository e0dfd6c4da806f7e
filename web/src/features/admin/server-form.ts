import { usesApiToken, type AdminServer, type CreateServerBody, type PanelKindName, type UpdateServerBody } from '../../../../shared/servers.js';
import { TRANSLATED_LOCALES, type TranslatedLocale } from '../../../../shared/plan-translations.js';
import type { RegionNameTranslations } from '../../../../shared/region-names.js';

/** What the Add/Edit server form holds; the password and the API token are write-only and start empty on edit. */
export interface ServerFormValues {
  kind: PanelKindName;
  name: string;
  publicName: string;
  /** The public name in the other languages ('' = as written). */
  publicNameTranslations: Record<TranslatedLocale, string>;
  url: string;
  username: string;
  password: string;
  /** Remnawave's API token (its kinds have no username or password). */
  apiToken: string;
  /** When that token ends, `YYYY-MM-DD` ('' = not given): the admins are warned 14 and 3 days before. */
  apiTokenExpiresAt: string;
  serviceId: string;
  locations: string;
  /** Only the plans that list it may put accounts on it. */
  premium: boolean;
}

export const PANEL_KIND_LABELS: Record<PanelKindName, string> = {
  marzneshin: 'Marzneshin',
  marzban: 'Marzban',
  remnawave: 'Remnawave',
  pasarguard: 'PasarGuard',
};

/** Kinds whose service field may name several of the panel's services (squads, groups), comma-separated. */
export const MULTI_SERVICE_KINDS: readonly PanelKindName[] = ['remnawave', 'pasarguard'];

export const NEW_SERVER_VALUES: ServerFormValues = {
  kind: 'marzneshin',
  name: '',
  publicName: '',
  publicNameTranslations: { ru: '', fa: '', 'zh-CN': '' },
  url: '',
  username: '',
  password: '',
  apiToken: '',
  apiTokenExpiresAt: '',
  serviceId: '',
  locations: 'all',
  premium: false,
};

export function valuesFromServer(server: AdminServer): ServerFormValues {
  const { kind, name, url, username, serviceId, locations } = server;
  return {
    kind,
    name,
    publicName: server.publicName ?? '',
    publicNameTranslations: {
      ru: server.publicNameTranslations.ru ?? '',
      fa: server.publicNameTranslations.fa ?? '',
      'zh-CN': server.publicNameTranslations['zh-CN'] ?? '',
    },
    url,
    username,
    password: '',
    apiToken: '',
    apiTokenExpiresAt: server.apiTokenExpiresAt?.slice(0, 10) ?? '',
    serviceId,
    locations,
    premium: server.premium,
  };
}

/** The translated names typed, without the empty ones. */
function translationsOf(values: ServerFormValues): RegionNameTranslations {
  const translations: RegionNameTranslations = {};
  for (const locale of TRANSLATED_LOCALES) {
    const name = values.publicNameTranslations[locale].trim();
    if (name) translations[locale] = name;
  }
  return translations;
}

export function toCreateServerBody(values: ServerFormValues): CreateServerBody {
  const credentials = usesApiToken(values.kind)
    ? { apiToken: values.apiToken.trim(), apiTokenExpiresAt: values.apiTokenExpiresAt ? `${values.apiTokenExpiresAt}T00:00:00.000Z` : null }
    : { username: values.username.trim(), password: values.password };
  return {
    kind: values.kind,
    name: values.name.trim(),
    publicName: values.publicName.trim() || null,
    publicNameTranslations: translationsOf(values),
    url: values.url.trim(),
    ...credentials,
    serviceId: values.serviceId.trim(),
    locations: values.locations.trim() || 'all',
    premium: values.premium,
  };
}

/** Only the fields that changed; the password or API token only when one was typed. */
export function toUpdateServerBody(values: ServerFormValues, original: AdminServer): UpdateServerBody {
  const { password, apiToken, ...next } = toCreateServerBody(values);
  const changes: UpdateServerBody = {};
  for (const key of Object.keys(next) as Array<keyof typeof next>) {
    if (JSON.stringify(next[key]) !== JSON.stringify(original[key])) Object.assign(changes, { [key]: next[key] });
  }
  if (password) changes.password = password;
  if (apiToken) changes.apiToken = apiToken;
  return changes;
}

/** Whether the panel connection (not just the name or locations) differs from the saved server. */
export function connectionChanged(values: ServerFormValues, original: AdminServer): boolean {
  const username = usesApiToken(values.kind) ? '' : values.username.trim();
  return values.kind !== original.kind || values.url.trim() !== original.url || username !== original.username;
}

/** The typed secret the credential test needs: the API token, or the password. */
export const typedSecret = (values: ServerFormValues): string => (usesApiToken(values.kind) ? values.apiToken.trim() : values.password);
