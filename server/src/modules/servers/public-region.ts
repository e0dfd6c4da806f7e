import type { RegionNameTranslations } from '../../../../shared/region-names.js';

/**
 * What customers and the public may call a panel server: its public name, or — when the operator gave
 * none — "Location N", numbered in the order the servers were added. Never the admin's internal name,
 * which often describes the machine or the provider ("Hetzner #2", "Demo server (fake panel)").
 * The web app translates the numbered form from `locationNumber`.
 */
export interface PublicRegionName {
  name: string;
  /** Set when the server has no public name: the web app shows "Location {number}" in the reader's language. */
  locationNumber: number | null;
  /** `name` in the customers' other languages, as the operator wrote it (none for "Location N"). */
  nameTranslations: RegionNameTranslations;
}

/** `number` counts from 1, in the order the servers were added (created_at, then id). */
export function publicRegionName(publicName: string | null, number: number, translations: RegionNameTranslations = {}): PublicRegionName {
  return publicName
    ? { name: publicName, locationNumber: null, nameTranslations: translations }
    : { name: `Location ${number}`, locationNumber: number, nameTranslations: {} };
}
