import { isLocale, type Locale } from '../../../../shared/locales.js';
import type { Db } from '../../db/knex.js';
import { parseJson, toDateOrNull } from '../../db/values.js';
import { preparedRead } from './prepared-read.js';

/** What `/sub/:token` needs of an account: never the panel's credentials. */
export interface SubscriptionAccount {
  id: string;
  userId: string;
  username: string;
  /** As stored: active, on_hold, suspended (not paid yet), disabled, limited, expired, … */
  status: string;
  expireDate: Date | null;
  /** null = unlimited (0 in the row). */
  dataLimitBytes: number | null;
  /** metadata.used_traffic; null when the panel has not been asked yet. */
  usedTrafficBytes: number | null;
  /** The panel's own absolute subscription URL; null while the account is not provisioned. */
  subscriptionUrl: string | null;
  /** The panel kind of its master server; null when the server row is gone. */
  panelKind: string | null;
  /** A payment for it has succeeded (a suspended row is then being set up, not waiting for payment). */
  paid: boolean;
  /** The language its owner reads (user_profiles.locale): the page a browser gets is in it. Null until known. */
  ownerLocale: Locale | null;
  /** How many devices may fetch it; null = unlimited. */
  deviceLimit: number | null;
}

interface AccountMetadata {
  used_traffic?: unknown;
}

const COLUMNS = [
  'a.id', 'a.user_id', 'a.username', 'a.status', 'a.expire_date', 'a.data_limit', 'a.subscription_url', 'a.metadata',
  'm.kind as panel_kind', 'u.locale as owner_locale', 'a.device_limit',
];

function toAccount(row: Record<string, unknown>): SubscriptionAccount {
  const metadata = parseJson<AccountMetadata>(row.metadata, {});
  const used = metadata.used_traffic;
  const limit = Number(row.data_limit ?? 0);
  return {
    id: row.id as string,
    userId: row.user_id as string,
    username: row.username as string,
    status: row.status as string,
    expireDate: toDateOrNull(row.expire_date),
    dataLimitBytes: Number.isFinite(limit) && limit > 0 ? limit : null,
    usedTrafficBytes: used === undefined || used === null || !Number.isFinite(Number(used)) ? null : Math.max(0, Number(used)),
    subscriptionUrl: typeof row.subscription_url === 'string' && row.subscription_url !== '' ? row.subscription_url : null,
    panelKind: typeof row.panel_kind === 'string' ? row.panel_kind : null,
    paid: Boolean(row.paid) && row.paid !== '0',
    ownerLocale: isLocale(row.owner_locale) ? row.owner_locale : null,
    deviceLimit: row.device_limit === null || row.device_limit === undefined ? null : Number(row.device_limit),
  };
}

export function createSubscriptionRepo(db: Db) {
  // Built and prepared once: every `/sub` request (and every guessed token) runs it.
  const byToken = preparedRead(db, (token: string) =>
    db('vpn_accounts as a')
      .leftJoin('masterservers as m', 'm.id', 'a.master_server_id')
      // The owner's language in the same query (the hot path stays one round trip).
      .leftJoin('user_profiles as u', 'u.id', 'a.user_id')
      .select(COLUMNS)
      .select(db.raw(
        `exists (select 1 from subscriptions s join transactions t on t.subscription_id = s.id where s.vpn_account_id = a.id and t.status = 'succeeded') as paid`,
      ))
      .where('a.sub_token', token)
      .first());
  return {
    async findByToken(token: string): Promise<SubscriptionAccount | undefined> {
      const row = await byToken(token);
      return row ? toAccount(row) : undefined;
    },
  };
}

export type SubscriptionRepo = ReturnType<typeof createSubscriptionRepo>;
