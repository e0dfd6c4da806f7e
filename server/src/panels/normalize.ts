/** Datetimes that panels send without a zone are UTC (panels.md): parse them as such. */
export function parseNaiveUtc(value: string | null | undefined): Date | null {
  if (!value) return null;
  const hasZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(value);
  const date = new Date(hasZone ? value : `${value}Z`);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Unix time in seconds or milliseconds (0/null = never) as a Date. */
export function fromUnix(value: number | null | undefined): Date | null {
  if (!value) return null;
  return new Date(value > 1e12 ? value : value * 1000);
}

export function splitLinks(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

/** A server a placeholder points at instead of a node: Remnawave's remark-only lines use 0.0.0.0, port 1. */
export const PLACEHOLDER_HOST = '0.0.0.0';

/**
 * A link a panel hands an inactive user instead of a configuration: Marzneshin's and Marzban's vmess:// whose
 * remark is "disabled", or Remnawave's remark-only line (`vless://00000000-…@0.0.0.0:1#⌛ Subscription expired`).
 */
export function isPlaceholderLink(link: string): boolean {
  if (/^[a-z0-9]+:\/\/[^@/]*@0\.0\.0\.0:1(?:[/?#]|$)/i.test(link)) return true;
  if (!link.startsWith('vmess://')) return decodeURIComponent(link.split('#')[1] ?? '') === 'disabled';
  try {
    const config = JSON.parse(Buffer.from(link.slice('vmess://'.length), 'base64').toString('utf8')) as { ps?: string };
    return config.ps === 'disabled';
  } catch {
    return false;
  }
}
