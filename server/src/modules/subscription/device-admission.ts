/**
 * Which devices may fetch an account's configuration on `/sub` (issue 24). A client that sends `x-hwid`
 * is a device of the account: recorded whatever the account, and on an account with a device limit a new
 * one beyond it is refused. A client without a device id is served, refused, or (`count`) made a device by its
 * app and address (anonymousDevice), which holds its slot while seen within the operator's window.
 *
 * The hot path stays in memory: each account's admitted device ids are read once per `ttlMs` (the same
 * few seconds as the account rows), so a known device costs no database round trip, and its
 * `last_seen_at` is written at most once per `touchIntervalMs` (in the background). Only a device not
 * yet known goes to the database, where the admission itself is exact (see DevicesRepo.admit).
 * `forget` drops an account's entry (a device was removed here or, through the broadcast, elsewhere);
 * without a message, the TTL bounds how long another instance still admits a removed device.
 */
import type { DevicelessClientPolicy } from '../../../../shared/devices.js';
import { AppError } from '../../errors.js';
import type { ClientDevice, DevicesRepo } from '../devices/index.js';
import { LruMap } from '../../lib/lru-map.js';

export type DeviceCheck =
  { allowed: true } | { allowed: false; reason: 'limit_reached'; count: number; limit: number } | { allowed: false; reason: 'no_device_id'; limit: number };

export interface DeviceAdmissionOptions {
  repo: Pick<DevicesRepo, 'seenOf' | 'admit' | 'touch'>;
  now: () => number;
  /** How long an account's admitted devices are reused before they are read again, ms. */
  ttlMs: number;
  /** How often a known device's `last_seen_at` is written at most, ms. Default 5 minutes. */
  touchIntervalMs?: number;
  /** Accounts kept in memory. Default 10 000. */
  maxAccounts?: number;
  log: { warn(obj: object, msg: string): void };
}

interface Entry {
  at: number;
  /** hwid → when it was last seen (ms), as far as this instance knows. */
  seen: Map<string, number>;
}

const ALLOWED: DeviceCheck = { allowed: true };
const UNAVAILABLE = 'Service is temporarily unavailable. Please try again later or contact support.';

export function createDeviceAdmission(options: DeviceAdmissionOptions) {
  const { repo, now, ttlMs, log } = options;
  const touchIntervalMs = options.touchIntervalMs ?? 5 * 60_000;
  const entries = new LruMap<string, Entry>(options.maxAccounts ?? 10_000);
  const loads = new Map<string, Promise<Entry>>();

  /** The account's admitted devices: the cached entry while fresh, else one read shared by concurrent requests. */
  async function entryOf(accountId: string): Promise<Entry> {
    const cached = entries.get(accountId);
    if (cached && now() - cached.at < ttlMs) return cached;
    let load = loads.get(accountId);
    if (!load) {
      const started: Promise<Entry> = repo.seenOf(accountId).then((seen) => {
        const entry = { at: now(), seen };
        // A `forget` while it loaded drops this load: its answer may predate the change.
        if (loads.get(accountId) === started) entries.set(accountId, entry);
        return entry;
      });
      load = started.finally(() => {
        if (loads.get(accountId) === started) loads.delete(accountId);
      });
      loads.set(accountId, started);
    }
    try {
      return await load;
    } catch (err) {
      // The database is unreachable: devices admitted moments ago still are.
      if (cached) return cached;
      throw err;
    }
  }

  /** A known device seen again: remembered at once, written in the background at most every touchIntervalMs. */
  function touch(accountId: string, entry: Entry, device: ClientDevice, lastSeen: number): void {
    const at = now();
    if (at - lastSeen < touchIntervalMs) return;
    entry.seen.set(device.hwid, at);
    repo.touch(accountId, device, new Date(at)).catch((err: unknown) => {
      log.warn({ accountId, err: err instanceof Error ? err.message : String(err) }, 'devices: could not record when a device was last seen');
    });
  }

  /** Whether a device seen at `lastSeen` still holds its slot: an anonymous one only within the window. */
  const holdsSlot = (device: ClientDevice, lastSeen: number | undefined, windowMs: number) =>
    lastSeen !== undefined && (!device.anonymous || now() - lastSeen < windowMs);

  async function checkDevice(account: { id: string; deviceLimit: number | null }, device: ClientDevice, windowMs: number): Promise<DeviceCheck> {
    const limited = account.deviceLimit !== null;
    let entry: Entry;
    try {
      entry = await entryOf(account.id);
    } catch (err) {
      log.warn({ accountId: account.id, err: err instanceof Error ? err.message : String(err) }, "devices: could not read the account's devices");
      if (!limited) return ALLOWED; // recording is best effort where nothing is limited
      throw new AppError(503, 'service_unavailable', UNAVAILABLE, { retryAfterSeconds: 30 });
    }
    const lastSeen = entry.seen.get(device.hwid);
    if (holdsSlot(device, lastSeen, windowMs)) {
      touch(account.id, entry, device, lastSeen!);
      return ALLOWED;
    }
    let admission: Awaited<ReturnType<DevicesRepo['admit']>>;
    try {
      admission = await repo.admit(account.id, device, account.deviceLimit, new Date(now()), device.anonymous ? new Date(now() - windowMs) : undefined);
    } catch (err) {
      log.warn({ accountId: account.id, err: err instanceof Error ? err.message : String(err) }, 'devices: could not admit a new device');
      if (!limited) return ALLOWED;
      throw new AppError(503, 'service_unavailable', UNAVAILABLE, { retryAfterSeconds: 30 });
    }
    if (admission.outcome === 'refused') return { allowed: false, reason: 'limit_reached', count: admission.count, limit: account.deviceLimit! };
    if (entries.peek(account.id) === entry) entry.seen.set(device.hwid, now());
    return ALLOWED;
  }

  return {
    /**
     * The hot path: true when `device` is one the account admitted and this instance read that within
     * the TTL, decided without waiting for anything. False means only "ask `check`".
     */
    admittedNow(accountId: string, device: ClientDevice, anonymousWindowMs = Infinity): boolean {
      const entry = entries.get(accountId);
      if (!entry || now() - entry.at >= ttlMs) return false;
      const lastSeen = entry.seen.get(device.hwid);
      if (!holdsSlot(device, lastSeen, anonymousWindowMs)) return false;
      touch(accountId, entry, device, lastSeen!);
      return true;
    },

    /**
     * Whether this request's client may have the account's configuration (recording its device on the way).
     * An anonymous device (an app without a device id, counted) holds its slot `anonymousWindowMs` after it was last seen.
     */
    async check(
      account: { id: string; deviceLimit: number | null },
      device: ClientDevice | null,
      deviceless: DevicelessClientPolicy,
      anonymousWindowMs = Infinity,
    ): Promise<DeviceCheck> {
      if (device) return checkDevice(account, device, anonymousWindowMs);
      if (account.deviceLimit !== null && deviceless === 'refuse') return { allowed: false, reason: 'no_device_id', limit: account.deviceLimit };
      return ALLOWED;
    },

    /** Forgets what is known of an account's devices (one was removed). */
    forget(accountId: string): void {
      entries.delete(accountId);
      loads.delete(accountId);
    },

    /** Sizes, for tests. */
    stats() {
      return { accounts: entries.size, loading: loads.size };
    },
  };
}

export type DeviceAdmission = ReturnType<typeof createDeviceAdmission>;
