/**
 * The brand settings `/sub` answers with (name, support address, deviceless clients, spare domains, the headers
 * apps act on), with the header values made from them once per load, and reused for a while: read again when
 * they are old, when the admin saved settings, or when the service is told to forget them.
 */
import { DEFAULT_BRAND_NAME, defaultSupportEmail } from '../../../../shared/config.js';
import { DEVICELESS_WINDOW, type DevicelessClientPolicy } from '../../../../shared/devices.js';
import { activeSubscriptionHost, originOf, type SubscriptionDomain } from '../../../../shared/subscription-domains.js';
import { SUBSCRIPTION_HEADER_DEFAULTS, type SubscriptionHeaderSettings } from '../../../../shared/subscription-headers.js';
import type { Clock } from '../../lib/clock.js';
import { appHeaderSettings, headerSafe, type AppHeaderSettings } from './app-headers.js';
import type { SubscriptionBrand, SubscriptionLog } from './subscription-deps.js';

/** The brand settings with the header values made from them (computed once per load, not per request). */
export interface Brand extends SubscriptionBrand {
  devicelessClients: DevicelessClientPolicy;
  devicelessWindowMs: number;
  /** The host links are issued on, its origin, every host of ours (PUBLIC_URL's and the spare domains), and their origins. */
  activeHost: string;
  activeOrigin: string;
  ourHosts: ReadonlySet<string>;
  ourOrigins: ReadonlySet<string>;
  profileTitle: string;
  contentDisposition: string;
  app: AppHeaderSettings;
}

export const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64');

/** `attachment; filename="<ascii>"; filename*=UTF-8''<pct-encoded>` (Hiddify reads the first, Clash Verge the second). */
export function contentDisposition(name: string): string {
  const clean = headerSafe(name) || 'subscription';
  const ascii =
    clean
      .normalize('NFKD')
      .replace(/[^\x20-\x7e]/g, '')
      .replace(/["\\%]/g, '')
      .replace(/\s+/g, ' ')
      .trim() || 'subscription';
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export interface BrandOptions {
  settings: { getAppSettings(): Promise<SubscriptionBrand> };
  publicUrl: URL;
  clock: Clock;
  log: SubscriptionLog;
  /** How long the settings are reused, ms. */
  ttlMs: number;
  /** Moves when the admin saves settings: they are read again at once. */
  settingsVersion: () => number;
  /** `profile-update-interval` when the admin set no headers, hours. */
  updateIntervalHours: number | undefined;
}

/** The brand last read, the read under way, and what they are made with. */
interface BrandState {
  options: BrandOptions;
  defaultHeaders: SubscriptionHeaderSettings;
  brand: { value: Brand; at: number; version: number } | undefined;
  brandLookup: Promise<Brand> | undefined;
}

const domainsOf = (domains: readonly SubscriptionDomain[], publicUrl: URL) => {
  const activeHost = activeSubscriptionHost(domains, publicUrl);
  const ourHosts = new Set([publicUrl.host, ...domains.map((entry) => entry.domain)]);
  return { activeHost, activeOrigin: originOf(activeHost, publicUrl), ourHosts, ourOrigins: new Set([...ourHosts].map((host) => originOf(host, publicUrl))) };
};

function toBrand(state: BrandState, settings: SubscriptionBrand): Brand {
  const { publicUrl } = state.options;
  const brandName = headerSafe(settings.brandName) || DEFAULT_BRAND_NAME;
  return {
    brandName,
    supportEmail: headerSafe(settings.supportEmail) || defaultSupportEmail(publicUrl),
    devicelessClients: settings.devicelessClients ?? 'allow',
    devicelessWindowMs: (settings.devicelessWindowHours ?? DEVICELESS_WINDOW.defaultHours) * 3_600_000,
    ...domainsOf(settings.subscriptionDomains ?? [], publicUrl),
    profileTitle: `base64:${b64(brandName)}`,
    contentDisposition: contentDisposition(brandName),
    app: appHeaderSettings(settings.subscriptionHeaders ?? state.defaultHeaders),
  };
}

async function getBrand(state: BrandState, now: number): Promise<Brand> {
  const { options } = state;
  const version = options.settingsVersion();
  if (state.brand && now - state.brand.at < options.ttlMs && state.brand.version === version) return state.brand.value;
  state.brandLookup ??= options.settings
    .getAppSettings()
    .then((settings) => {
      const value = toBrand(state, settings);
      state.brand = { value, at: options.clock().getTime(), version };
      return value;
    })
    .catch((err: unknown) => {
      options.log.warn({ err: err instanceof Error ? err.message : String(err) }, 'subscription: could not read the brand settings');
      return state.brand?.value ?? toBrand(state, { brandName: DEFAULT_BRAND_NAME, supportEmail: defaultSupportEmail(options.publicUrl) });
    })
    .finally(() => {
      state.brandLookup = undefined;
    });
  return state.brandLookup;
}

/** The brand settings, read through `settings` and reused for `ttlMs` (or until `settingsVersion` moves, or `invalidate`). */
export function createBrandSettings(options: BrandOptions) {
  const state: BrandState = {
    options,
    defaultHeaders: { ...SUBSCRIPTION_HEADER_DEFAULTS, updateIntervalHours: Math.max(1, Math.round(options.updateIntervalHours ?? 12)) },
    brand: undefined,
    brandLookup: undefined,
  };
  return {
    get: (now: number): Promise<Brand> => getBrand(state, now),
    /** Forgets the settings read (the next request reads them again). */
    invalidate(): void {
      state.brand = undefined;
    },
  };
}

export type BrandSettings = ReturnType<typeof createBrandSettings>;
