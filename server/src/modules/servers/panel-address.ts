import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { validationFailed } from '../../errors.js';

/**
 * Link-local addresses, where clouds serve instance metadata (and credentials) at 169.254.169.254,
 * and AWS's IPv6 metadata address outside that range. Loopback and private ranges stay allowed:
 * a panel on the same host or network is normal.
 */
const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');
LINK_LOCAL.addAddress('fd00:ec2::254', 'ipv6');

export const LINK_LOCAL_REFUSED =
  'This address is link-local or a cloud metadata address, so this server will not call it. (The operator can allow it with ALLOW_LINK_LOCAL_PANELS=true.)';

/** Every address a hostname resolves to. */
export type ResolveAll = (hostname: string) => Promise<string[]>;

const resolveAll: ResolveAll = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/** Whether an IP address (v4, v6, or v4 mapped into v6) is link-local or a metadata address. */
export function isLinkLocalAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && LINK_LOCAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Throws 400 `validation_failed` (on `field`, default `url`) for an address this server must not call. */
export type PanelUrlCheck = (url: string, field?: string) => Promise<void>;

/**
 * The check an admin's panel (or BTCPay Server) URL passes before any request is made to it: its host, and every address
 * its name resolves to, must not be link-local, unless the operator allows it. A name that does not
 * resolve passes here; the connection test then reports it unreachable.
 */
export function createPanelUrlCheck(options: { allowLinkLocal: boolean; resolve?: ResolveAll }): PanelUrlCheck {
  const resolve = options.resolve ?? resolveAll;
  return async (url, field = 'url') => {
    if (options.allowLinkLocal) return;
    const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : await resolve(host);
    } catch {
      return;
    }
    if (addresses.some(isLinkLocalAddress)) throw validationFailed({ [field]: LINK_LOCAL_REFUSED }, LINK_LOCAL_REFUSED);
  };
}
