import { deviceLimitWithExtras } from '../../../../shared/devices.js';
import { isLocale, type Locale } from '../../../../shared/locales.js';
import { MAX_KEYS_AT_ONCE, whereInJsonArray } from '../../db/batched-read.js';
import type { Knex } from 'knex';
import { dialectOf, type Db } from '../../db/knex.js';
import { toDateOrNull } from '../../db/values.js';
import { preparedAll, preparedFirst } from '../../db/prepared-read.js';
import { toStoredCopy, type StoredCopy } from './subscription-copies.repo.js';
import type { PanelFormat } from './subscription-format.js';

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
  /** The URL the admin added its master server with (its subscription is fetched through it first); null when the row is gone. */
  panelUrl: string | null;
  /** A payment for it has succeeded (a suspended row is then being set up, not waiting for payment). */
  paid: boolean;
  /** How many devices may fetch it; null = unlimited. */
  deviceLimit: number | null;
  /** Its stored configuration in the panel format asked for, read with the row (no second query); null = none stored from its current panel URL. */
  storedCopy?: { source: PanelFormat; copy: StoredCopy | null };
}

const COLUMNS = [
  'a.id',
  'a.user_id',
  'a.username',
  'a.status',
  'a.data_limit',
  'a.subscription_url',
  'm.kind as panel_kind',
  'm.url as panel_url',
  'a.device_limit',
  'a.extra_devices',
];

/**
 * Of the metadata only the traffic used (the rest holds the panel's links, kilobytes a cold request would parse),
 * and the times as epoch milliseconds: node-postgres reads a timestamp through a regular expression, a number as it is.
 */
function derivedColumns(db: Db): Knex.Raw[] {
  if (dialectOf(db) === 'postgres') {
    return [
      db.raw("a.metadata->>'used_traffic' as used_traffic"),
      db.raw('(extract(epoch from a.expire_date) * 1000)::float8 as expire_ms'),
      db.raw('(extract(epoch from c.fetched_at) * 1000)::float8 as copy_fetched_ms'),
    ];
  }
  return [
    db.raw("json_extract(a.metadata, '$.used_traffic') as used_traffic"),
    db.raw('a.expire_date as expire_ms'),
    db.raw('c.fetched_at as copy_fetched_ms'),
  ];
}

function toAccount(row: Record<string, unknown>, source: PanelFormat): SubscriptionAccount {
  const used = row.used_traffic;
  const limit = Number(row.data_limit ?? 0);
  return {
    id: row.id as string,
    userId: row.user_id as string,
    username: row.username as string,
    status: row.status as string,
    expireDate: toDateOrNull(row.expire_ms),
    dataLimitBytes: Number.isFinite(limit) && limit > 0 ? limit : null,
    usedTrafficBytes: used === undefined || used === null || !Number.isFinite(Number(used)) ? null : Math.max(0, Number(used)),
    subscriptionUrl: typeof row.subscription_url === 'string' && row.subscription_url !== '' ? row.subscription_url : null,
    panelKind: typeof row.panel_kind === 'string' ? row.panel_kind : null,
    panelUrl: typeof row.panel_url === 'string' && row.panel_url !== '' ? row.panel_url : null,
    paid: Boolean(row.paid) && row.paid !== '0',
    deviceLimit: deviceLimitWithExtras(row.device_limit, row.extra_devices),
    storedCopy: {
      source,
      copy:
        typeof row.copy_body === 'string'
          ? toStoredCopy(row.subscription_url, row.copy_body, row.copy_userinfo, row.copy_fetched_ms, row.copy_placeholder)
          : null,
    },
  };
}

export function createSubscriptionRepo(db: Db) {
  // Built and prepared once: every cold `/sub` request (and every guessed token) runs it. The tokens come
  // as one JSON array (one statement whatever their number): the requests of a burst share a round trip.
  const byTokens = preparedAll(db, (tokensJson: string, source: string) =>
    db('vpn_accounts as a')
      .leftJoin('masterservers as m', 'm.id', 'a.master_server_id')
      // The stored configuration in the same query (the hot path stays one round trip). Not the owner's
      // language: only a page or a refusal shows it (ownerLocale), and at a million users its join was a
      // quarter of the lookup's time on SQLite (10.4 against 14.5 µs a token, a batch of 20 random tokens).
      // Only a copy from the account's current panel URL (a moved account's old copy is not its copy).
      .leftJoin('subscription_copies as c', (join) =>
        join
          .on('c.vpn_account_id', '=', 'a.id')
          .andOn('c.source', '=', db.raw('?', [source]))
          .andOn('c.subscription_url', '=', 'a.subscription_url'),
      )
      .select(COLUMNS)
      .select(derivedColumns(db))
      .select('a.sub_token', 'c.body as copy_body', 'c.userinfo as copy_userinfo', 'c.placeholder as copy_placeholder')
      // Kept on the row by triggers (migration 030): no lookup of payments per request.
      .select('a.payment_confirmed as paid')
      .whereRaw(whereInJsonArray(db, 'a.sub_token'), [tokensJson]),
  );
  const localeOf = preparedFirst(db, (userId: string) => db('user_profiles').select('locale').where({ id: userId }).first());
  return {
    /**
     * The accounts of these tokens (at most MAX_KEYS_AT_ONCE), each with its stored configuration in
     * `source` (the format the requests will want); a token of no account is absent from the map.
     */
    async findByTokens(tokens: readonly string[], source: PanelFormat = 'v2ray'): Promise<Map<string, SubscriptionAccount>> {
      if (tokens.length > MAX_KEYS_AT_ONCE) throw new RangeError(`findByTokens: at most ${MAX_KEYS_AT_ONCE} tokens at once`);
      const found = new Map<string, SubscriptionAccount>();
      if (tokens.length === 0) return found;
      for (const row of await byTokens(JSON.stringify(tokens), source)) found.set(row.sub_token as string, toAccount(row, source));
      return found;
    },

    /** The language the account's owner reads (user_profiles.locale); null until they have one. */
    async ownerLocale(userId: string): Promise<Locale | null> {
      const locale = (await localeOf(userId))?.locale;
      return isLocale(locale) ? locale : null;
    },
  };
}

export type SubscriptionRepo = ReturnType<typeof createSubscriptionRepo>;
