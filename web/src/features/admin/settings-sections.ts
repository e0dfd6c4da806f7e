/**
 * The Settings tab's sections, in order: each has its own path (`/admin/settings/<section>`), and
 * `/admin/settings` (or a section no longer known) opens the first.
 */
export const SETTINGS_SECTION_IDS = ['general', 'site', 'billing', 'accounts', 'security', 'payments'] as const;

export type SettingsSectionId = (typeof SETTINGS_SECTION_IDS)[number];

/** Each section's name in the adminSettings catalogue. */
export const SETTINGS_SECTION_LABEL_IDS: Record<SettingsSectionId, string> = {
  general: 'adminSettings.section.general',
  site: 'adminSettings.section.site',
  billing: 'adminSettings.section.billing',
  accounts: 'adminSettings.section.accounts',
  security: 'adminSettings.section.security',
  payments: 'adminSettings.section.payments',
};

/** A section's path, without the language prefix. */
export const settingsSectionPath = (section: SettingsSectionId): string => `/admin/settings/${section}`;

/** The section `pathname` (with or without the language prefix) opens: the one it names, else the first. */
export function settingsSectionAt(pathname: string): SettingsSectionId {
  const named = /\/admin\/settings\/([\w-]+)\/?$/.exec(pathname)?.[1];
  return SETTINGS_SECTION_IDS.find((section) => section === named) ?? SETTINGS_SECTION_IDS[0];
}
