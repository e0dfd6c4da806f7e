import { TRANSLATED_LOCALES, type TranslatedLocale } from '../../../../shared/plan-translations.js';
import type { RegionNameTranslations } from '../../../../shared/region-names.js';
import type { Db } from '../../db/knex.js';

const isTranslatedLocale = (value: unknown): value is TranslatedLocale => (TRANSLATED_LOCALES as readonly unknown[]).includes(value);

/** Servers' public region names in the other languages (table region_name_translations), by server id: all, or those of `serverIds`. */
export async function regionTranslationsOf(db: Db, serverIds?: readonly string[]): Promise<Map<string, RegionNameTranslations>> {
  const query = db('region_name_translations').select('server_id', 'locale', 'name');
  if (serverIds) query.whereIn('server_id', serverIds);
  const byServer = new Map<string, RegionNameTranslations>();
  for (const row of (await query) as Array<{ server_id: string; locale: string; name: string }>) {
    if (!isTranslatedLocale(row.locale)) continue;
    const translations = byServer.get(row.server_id) ?? {};
    translations[row.locale] = row.name;
    byServer.set(row.server_id, translations);
  }
  return byServer;
}

/** Replaces a server's translated region names with `translations` (inside the caller's transaction). */
export async function saveRegionTranslations(trx: Db, serverId: string, translations: RegionNameTranslations | undefined): Promise<void> {
  await trx('region_name_translations').where({ server_id: serverId }).delete();
  const rows = TRANSLATED_LOCALES.flatMap((locale) => (translations?.[locale] ? [{ server_id: serverId, locale, name: translations[locale] }] : []));
  if (rows.length > 0) await trx('region_name_translations').insert(rows);
}
