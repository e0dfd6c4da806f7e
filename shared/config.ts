/** `GET /api/config`: the public settings every screen may read. */
export interface PublicConfig {
  brandName: string;
  supportEmail: string;
  cardPaymentsEnabled: boolean;
  stripePublishableKey: string | null;
}

export const DEFAULT_BRAND_NAME = 'Lumen VPN';
export const DEFAULT_SUPPORT_EMAIL = 'support@example.com';

export interface HealthResponse {
  ok: boolean;
  db: boolean;
  version: string;
}
