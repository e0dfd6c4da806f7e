import fastJson from 'fast-json-stringify';
import type { VpnAccount } from '../../../../shared/accounts.js';

const nullableString = { type: 'string', nullable: true } as const;
const nullableNumber = { type: 'number', nullable: true } as const;
/**
 * Strings the server writes itself that JSON never escapes: ISO times (lib/iso-time.ts) and our own `/sub/`
 * links (a WHATWG URL's href and a hex token: no quote, backslash or control character). fast-json-stringify
 * writes them as they are instead of scanning each for characters to escape (a fifth of the list's serialising).
 */
const ownString = { type: 'string', format: 'unsafe' } as const;
const ownNullableString = { ...ownString, nullable: true } as const;
/** A name in the other languages (the English is beside it). */
const TRANSLATED_NAMES = { type: 'object', properties: { ru: { type: 'string' }, fa: { type: 'string' }, 'zh-CN': { type: 'string' } } } as const;

/**
 * `VpnAccount` as a schema: the dashboard's list is serialised with it (fast-json-stringify, several times
 * JSON.stringify's speed on this shape), leaving out anything unlisted. Typed by the shared
 * interface's keys, so a field added there must be added here.
 */
const VPN_ACCOUNT_PROPERTIES = {
  id: { type: 'string' },
  username: { type: 'string' },
  status: { type: 'string' },
  expireDate: ownNullableString,
  dataLimitBytes: nullableNumber,
  usedTrafficBytes: { type: 'number' },
  createdAt: ownString,
  combinedUrl: ownNullableString,
  subscriptionUrl: ownNullableString,
  links: { type: 'array', items: { type: 'string' } },
  server: {
    type: 'object',
    nullable: true,
    properties: {
      name: { type: 'string' },
      locationNumber: nullableNumber,
      nameTranslations: TRANSLATED_NAMES,
      locations: { type: 'string' },
    },
  },
  planName: nullableString,
  planNames: TRANSLATED_NAMES,
  planId: nullableString,
  renewable: { type: 'boolean' },
  usageStale: { type: 'boolean' },
  paymentConfirmed: { type: 'boolean' },
  usageCheckedAt: ownNullableString,
  deviceLimit: nullableNumber,
  autoRenewFromWallet: { type: 'boolean' },
  scheduledPlanChange: { type: 'object', nullable: true, properties: { planId: { type: 'string' }, effectiveAt: ownString } },
} as const satisfies Record<keyof VpnAccount, unknown>;

export const VpnAccountListResponse = {
  type: 'array',
  items: { type: 'object', properties: VPN_ACCOUNT_PROPERTIES },
} as const;

/** A list of accounts as JSON (the dashboard's `GET /api/accounts`). */
export const serializeAccountList: (accounts: VpnAccount[]) => string = fastJson(VpnAccountListResponse as Parameters<typeof fastJson>[0]);
