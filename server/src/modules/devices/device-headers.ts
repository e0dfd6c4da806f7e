/**
 * What a VPN client says about its device when it fetches `/sub` (Happ, v2RayTun, Hiddify, FlClash,
 * Streisand and others): `x-hwid` (its device id), `x-device-os`, `x-ver-os`, `x-device-model`, and
 * its User-Agent. All of it is client input: trimmed, stripped of control and direction-changing
 * characters, and cut to the column sizes.
 */
import { createHash } from 'node:crypto';
import { HWID_MAX_LENGTH } from '../../../../shared/devices.js';

export interface ClientDevice {
  hwid: string;
  os: string | null;
  osVersion: string | null;
  model: string | null;
  /** The client app from its User-Agent, e.g. "Happ/3.2.1". */
  app: string | null;
  /** An app that sends no device id, known by its app and address (anonymousDevice). */
  anonymous?: boolean;
}

/** The prefix of the made-up id of an app without a device id: no `x-hwid` a client sends can collide with it. */
export const ANONYMOUS_HWID_PREFIX = 'anon:';

/** The longest value kept of each field (account_devices' columns). */
export const DEVICE_FIELD_LENGTHS = { os: 32, osVersion: 32, model: 64, app: 64 } as const;

type HeaderValue = string | string[] | undefined;

// C0 and C1 controls, and the bidirectional overrides and isolates that could reorder text on a dashboard.
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

const first = (value: HeaderValue): string | undefined => (Array.isArray(value) ? value[0] : value);

/** A header as text fit to store and show: cleaned, spaces collapsed, cut to `max`; null when nothing is left. */
export function cleanHeader(value: HeaderValue, max: number): string | null {
  const raw = first(value);
  if (raw === undefined) return null;
  const clean = raw.replace(UNSAFE_CHARACTERS, ' ').replace(/\s+/g, ' ').trim().slice(0, max).trim();
  return clean === '' ? null : clean;
}

/** `x-hwid` as sent (trimmed, controls removed); null when absent, empty or longer than HWID_MAX_LENGTH. */
export function readHwid(value: HeaderValue): string | null {
  const raw = first(value);
  if (raw === undefined) return null;
  const hwid = raw.replace(UNSAFE_CHARACTERS, '').trim();
  return hwid === '' || hwid.length > HWID_MAX_LENGTH ? null : hwid;
}

/**
 * The client app named by a User-Agent: its first product token ("HiddifyNext/2.0 (android) like
 * ClashMeta" → "HiddifyNext/2.0", "Happ/3.2.1" → "Happ/3.2.1"), or its first word when it has none.
 */
export function appFromUserAgent(userAgent: HeaderValue): string | null {
  const ua = cleanHeader(userAgent, 512);
  if (!ua) return null;
  const product = /^([^\s/()]{1,40})\/([^\s/()]{1,24})/.exec(ua);
  if (product) return `${product[1]}/${product[2]}`.slice(0, DEVICE_FIELD_LENGTHS.app);
  return /^[^\s()]{1,64}/.exec(ua)?.[0] ?? null;
}

/**
 * An app that sends no device id (v2rayN, v2rayNG, Hiddify, Clash Verge Rev, FlClash), as a device: known by
 * what it does send, its app and version from the User-Agent and the address it fetches from. A hash stands
 * for them (the address is not kept), prefixed so that no `x-hwid` can be taken for it.
 */
export function anonymousDevice(userAgent: HeaderValue, address: string | undefined): ClientDevice {
  const app = appFromUserAgent(userAgent);
  const id = createHash('sha256')
    .update(`${app ?? ''}\n${address ?? ''}`)
    .digest('base64url')
    .slice(0, 32);
  return { hwid: `${ANONYMOUS_HWID_PREFIX}${id}`, os: null, osVersion: null, model: null, app, anonymous: true };
}

/**
 * The device a request announces, or null when it sends no usable `x-hwid`. Only the id is read here:
 * the rest is read when it is used (a new device, or a last-seen write), not on every request.
 */
export function readClientDevice(headers: Record<string, HeaderValue>): ClientDevice | null {
  const hwid = readHwid(headers['x-hwid']);
  return hwid === null ? null : new AnnouncedDevice(hwid, headers);
}

class AnnouncedDevice implements ClientDevice {
  constructor(
    readonly hwid: string,
    private readonly headers: Record<string, HeaderValue>,
  ) {}

  get os() {
    return cleanHeader(this.headers['x-device-os'], DEVICE_FIELD_LENGTHS.os);
  }

  get osVersion() {
    return cleanHeader(this.headers['x-ver-os'], DEVICE_FIELD_LENGTHS.osVersion);
  }

  get model() {
    return cleanHeader(this.headers['x-device-model'], DEVICE_FIELD_LENGTHS.model);
  }

  get app() {
    return appFromUserAgent(this.headers['user-agent']);
  }
}
