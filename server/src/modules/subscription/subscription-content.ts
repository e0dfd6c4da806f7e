/**
 * What we keep of a panel's subscription answer: the body in our formats, the usage from its
 * `subscription-userinfo` header, and whether it is the placeholder an inactive user gets. Nothing else
 * of the panel's answer (headers, addresses) is kept, so nothing else can be passed on.
 */
import { PLACEHOLDER_HOST, isPlaceholderLink, splitLinks } from '../../panels/normalize.js';
import { PanelError } from '../../panels/panel-driver.js';
import type { PanelFormat, SubscriptionFormat } from './subscription-format.js';

export interface SubscriptionUserinfo {
  upload: number;
  download: number;
  /** 0 = unlimited. */
  total: number;
  /** Unix seconds; 0 = never. */
  expire: number;
}

export interface PanelCopy {
  /** Ready-to-send bodies by our format (`v2ray` yields both `links` and `base64`: V2rayBodies). */
  bodies: Readonly<Partial<Record<SubscriptionFormat, Buffer>>>;
  /** The panel's `subscription-userinfo`, when it sent a readable one. */
  usage: SubscriptionUserinfo | null;
  /** Every server in it is the panel's `disabled` placeholder: the panel considers the user inactive. */
  placeholder: boolean;
  size: number;
  /**
   * The headers of the answers made from this copy, by format (subscription-replies.ts's clientHeaders). Kept on the
   * copy itself: as a WeakMap entry per copy they cost a cold request about 5 µs, most of it the collector's.
   */
  answers: Partial<Record<SubscriptionFormat, AnswerHeaders>>;
}

/** Headers made for one copy, account row and brand (reused while all three stay the same). */
export interface AnswerHeaders {
  account: object;
  brand: object;
  /** The announcement's language. */
  locale: string;
  headers: Record<string, string>;
}

/** The header as every panel writes it (and we do): read with one match, where most cold `/sub` requests read it. */
const CANONICAL_USERINFO = /^upload=(\d{1,15}); download=(\d{1,15}); total=(\d{1,15}); expire=(\d{1,15})$/;

/** `upload=1; download=2; total=3; expire=4` → numbers; null when the header is missing or unreadable. */
export function parseUserinfo(header: string | null | undefined): SubscriptionUserinfo | null {
  if (!header) return null;
  const canonical = CANONICAL_USERINFO.exec(header);
  if (canonical) return { upload: Number(canonical[1]), download: Number(canonical[2]), total: Number(canonical[3]), expire: Number(canonical[4]) };
  const values: Record<string, number> = {};
  for (const part of header.split(';')) {
    const match = /^\s*(upload|download|total|expire)\s*=\s*(\d+(?:\.\d+)?)\s*$/i.exec(part);
    if (match) values[match[1]!.toLowerCase()] = Math.floor(Number(match[2]));
  }
  if (values.download === undefined && values.upload === undefined) return null;
  return { upload: values.upload ?? 0, download: values.download ?? 0, total: values.total ?? 0, expire: values.expire ?? 0 };
}

/** The panel's `v2ray` answer is base64 of the links; accept plain links too. */
function decodeLinks(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  if (trimmed.includes('://')) return splitLinks(trimmed);
  if (!/^[A-Za-z0-9+/=_\-\s]+$/.test(trimmed)) throw new PanelError('invalid_response', 'The panel sent a subscription that is neither links nor base64');
  const decoded = Buffer.from(trimmed.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (!decoded.includes('://')) throw new PanelError('invalid_response', 'The panel sent base64 that does not hold links');
  return splitLinks(decoded);
}

const allPlaceholders = (names: string[]) => names.length > 0 && names.every((name) => name === 'disabled');
/** Every server of the answer is the placeholder host: the panel gave remarks, not configurations. */
const allNowhere = (servers: string[]) => servers.length > 0 && servers.every((server) => server === PLACEHOLDER_HOST);

/** sing-box JSON: every outbound with a server is named `disabled`. */
function singBoxPlaceholder(text: string): boolean {
  let config: { outbounds?: Array<{ tag?: unknown; server?: unknown }> };
  try {
    config = JSON.parse(text) as typeof config;
  } catch {
    throw new PanelError('invalid_response', 'The panel sent sing-box JSON that does not parse');
  }
  if (!config || typeof config !== 'object') throw new PanelError('invalid_response', 'The panel sent sing-box JSON that is not an object');
  const proxies = (Array.isArray(config.outbounds) ? config.outbounds : []).filter((o) => o && typeof o.server === 'string');
  return allPlaceholders(proxies.map((o) => String(o.tag))) || allNowhere(proxies.map((o) => String(o.server)));
}

/** Clash YAML: every entry of the top-level `proxies:` list is named `disabled`. */
function clashPlaceholder(text: string): boolean {
  if (/^\s*</.test(text)) throw new PanelError('invalid_response', 'The panel sent HTML instead of a Clash profile');
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((line) => /^proxies:\s*$/.test(line));
  if (start < 0) return false;
  const names: string[] = [];
  const servers: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const match = /^\s*-\s*\{?\s*name:\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^,}]*?))\s*(?:[,}]|$)/.exec(line);
    if (match) names.push(match[1] ?? match[2] ?? match[3] ?? '');
    const server = /(?:^\s*|[{,]\s*)server:\s*["']?([^"',}\s]+)/.exec(line);
    if (server) servers.push(server[1]!);
  }
  return allPlaceholders(names) || allNowhere(servers);
}

/**
 * The bodies of a `v2ray` copy: the base64 one as stored and as most clients ask for it; the plain links,
 * which a few ask for, decoded from it the first time one does.
 */
class V2rayBodies {
  private plain: Buffer | undefined;

  constructor(
    readonly base64: Buffer,
    plain?: Buffer,
  ) {
    this.plain = plain;
  }

  get links(): Buffer {
    return (this.plain ??= Buffer.from(this.base64.toString('latin1'), 'base64'));
  }
}

/** What the bodies of a copy weigh in the cache (a v2ray copy's links counted whether decoded yet or not). */
function sizeOf(source: PanelFormat, body: Buffer): number {
  return (source === 'v2ray' ? body.length + Math.ceil((body.length * 3) / 4) : body.length) + 256;
}

/** A panel answer made ready to serve, and its served form as stored (`subscription_copies`). */
export interface ParsedAnswer {
  copy: PanelCopy;
  /** The body in the form served: for `v2ray` the base64 of the links, one per line; otherwise the panel's text. */
  served: string;
}

/** Turns one successful panel answer into what the cache keeps. Throws PanelError('invalid_response') for junk. */
export function parsePanelAnswer(source: PanelFormat, text: string, userinfoHeader: string | null): ParsedAnswer {
  const usage = parseUserinfo(userinfoHeader);
  if (source === 'v2ray') {
    const links = decodeLinks(text);
    const plain = Buffer.from(links.join('\n'), 'utf8');
    const served = plain.toString('base64');
    const base64 = Buffer.from(served, 'latin1');
    const copy: PanelCopy = {
      bodies: new V2rayBodies(base64, plain),
      usage,
      placeholder: links.length > 0 && links.every(isPlaceholderLink),
      size: sizeOf(source, base64),
      answers: {},
    };
    return { copy, served };
  }
  const placeholder = source === 'sing-box' ? singBoxPlaceholder(text) : clashPlaceholder(text);
  const body = Buffer.from(text, 'utf8');
  return { copy: { bodies: { [source]: body }, usage, placeholder, size: sizeOf(source, body), answers: {} }, served: text };
}

/** A panel answer as it came (a copy stored before migration 036), made ready to serve. */
export function toPanelCopy(source: PanelFormat, text: string, userinfoHeader: string | null): PanelCopy {
  return parsePanelAnswer(source, text, userinfoHeader).copy;
}

/** A copy stored in its served form (parsePanelAnswer's `served`): nothing to parse but the usage header. */
export function servedPanelCopy(source: PanelFormat, served: string, userinfoHeader: string | null, placeholder: boolean): PanelCopy {
  const usage = parseUserinfo(userinfoHeader);
  if (source === 'v2ray') {
    const base64 = Buffer.from(served, 'latin1');
    return { bodies: new V2rayBodies(base64), usage, placeholder, size: sizeOf(source, base64), answers: {} };
  }
  const body = Buffer.from(served, 'utf8');
  return { bodies: { [source]: body }, usage, placeholder, size: sizeOf(source, body), answers: {} };
}
