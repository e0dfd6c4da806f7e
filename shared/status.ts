import type { RegionNameTranslations } from './region-names.js';

/** `GET /api/status`: public service health for the status page. Never names addresses. */
export type ServiceState = 'up' | 'down';

export interface RegionStatus {
  /** The server's public region name, e.g. "Germany" (never its internal name); "Location N" when unset. */
  name: string;
  /** For an unnamed server, N of "Location N", so a page can say it in its own language; null when named. */
  locationNumber: number | null;
  /** `name` in the other languages, as the operator wrote it (shared/region-names.ts). */
  nameTranslations: RegionNameTranslations;
  /** 'all' or comma-separated location codes, e.g. "DE,NL". */
  locations: string;
  status: ServiceState;
}

export interface StatusResponse {
  site: ServiceState;
  database: ServiceState;
  regions: RegionStatus[];
  /** ISO-8601 time of this check. */
  checkedAt: string;
}
