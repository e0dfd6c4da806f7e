import type { VpnAccountStatus } from '../../../../shared/accounts.js';
import { toJson } from '../../db/values.js';
import type { PanelAccount } from '../../panels/panel-driver.js';

/**
 * What an account's row keeps of its panel user, and where: the one mapping from a panel's answer to our row, for
 * every place that writes one (provisioning, the usage read, the admin's actions, renewals, the paid-period sync,
 * the panel sync and the import).
 */

export interface PanelValues {
  status: VpnAccountStatus;
  expireDate: Date | null;
  /** 0 = unlimited. */
  dataLimitBytes: number;
  usedTrafficBytes: number;
}

/** The panel's values with the account's configuration links. */
export interface AccountUsage extends PanelValues {
  links: string[];
}

/** What the row keeps in its metadata column of them. */
export interface AccountMetadata {
  used_traffic?: number;
  links?: string[];
}

export function panelValues(panel: PanelAccount): PanelValues {
  return { status: panel.status, expireDate: panel.expiresAt, dataLimitBytes: panel.dataLimitBytes ?? 0, usedTrafficBytes: panel.usedTrafficBytes };
}

/** With the links: the panel's when it gave them (they were asked for), else those the row keeps. */
export function panelUsage(panel: PanelAccount, keptLinks: string[]): AccountUsage {
  return { ...panelValues(panel), links: panel.links ?? keptLinks };
}

/**
 * The vpn_accounts columns that hold them: status, expiry and data limit in their own, the use and links in the
 * metadata (the rest of `metadata` kept; without `links`, the row's own links stay).
 */
export function usageColumns(values: PanelValues & { links?: string[] }, metadata: Record<string, unknown> = {}) {
  const kept: AccountMetadata = { used_traffic: values.usedTrafficBytes, ...(values.links ? { links: values.links } : {}) };
  return { status: values.status, expire_date: values.expireDate, data_limit: values.dataLimitBytes, metadata: toJson({ ...metadata, ...kept }) };
}
