/** `GET /api/status`: public service health for the status page. Never names addresses. */
export type ServiceState = 'up' | 'down';

export interface RegionStatus {
  /** The panel server's display name, e.g. "Germany". */
  name: string;
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
