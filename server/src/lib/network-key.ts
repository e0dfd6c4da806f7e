import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network a request comes from, as a rate limit counts it: an IPv4 address as it is (a carrier's shared
 * address is still one key: limits on it are loose), an IPv6 address by its /64 (one home or phone is given a
 * whole /64 and may use any address in it), an IPv4-mapped IPv6 address as its IPv4 address.
 */
export function networkKeyOf(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (isIPv4(ip) || !isIPv6(ip)) return ip;
  return `${expandIpv6(ip).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address (without a zone), each without leading zeros. */
function expandIpv6(ip: string): string[] {
  const [head, tail] = ip.split('%')[0]!.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An IPv4 address at the end (64:ff9b::1.2.3.4) is two groups.
  const rightGroups = right.length + (right.at(-1)?.includes('.') ? 1 : 0);
  const groups = tail === undefined ? left : [...left, ...Array<string>(Math.max(0, 8 - left.length - rightGroups)).fill('0'), ...right];
  return groups.map((group) => (group.includes('.') ? group : parseInt(group, 16).toString(16)));
}
