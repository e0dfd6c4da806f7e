import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_FORMATS } from './subscription-format.js';
import { placeholderBody, placeholderLink } from './device-placeholder.js';

const TEXT = 'Device limit reached (2 of 2): remove a device at http://localhost:3000/dashboard';
const HOSTILE = 'Лимит "устройств" #1: a\\b\nnext: line';

/** The entries of the top-level `key:` list of a YAML document written one item per `  - ` line, as JSON strings. */
function yamlList(yaml: string, key: string): string[] {
  const lines = yaml.split('\n');
  const start = lines.indexOf(`${key}:`);
  expect(start, key).toBeGreaterThanOrEqual(0);
  const items: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const item = /^ {2}- (?:name: )?(.*)$/.exec(line);
    if (item) items.push(item[1]!);
  }
  return items;
}

describe('the placeholder a refused device gets', () => {
  it('is one vless link to nowhere, named with the text, in the links and base64 formats', () => {
    const link = placeholderBody('links', TEXT, 'Lumen VPN').toString('utf8');
    expect(link).toBe(placeholderLink(TEXT));
    const url = new URL(link);
    expect(url.protocol).toBe('vless:');
    expect(url.hostname).toBe('127.0.0.1');
    expect(url.port).toBe('1');
    expect(decodeURIComponent(url.hash.slice(1))).toBe(TEXT);
    expect(Buffer.from(placeholderBody('base64', TEXT, 'Lumen VPN').toString('latin1'), 'base64').toString('utf8')).toBe(link);
  });

  it('is sing-box JSON with one outbound tagged with the text, selected by default', () => {
    const config = JSON.parse(placeholderBody('sing-box', HOSTILE, 'Lumen VPN').toString('utf8'));
    const withServer = config.outbounds.filter((o: { server?: string }) => o.server);
    expect(withServer).toEqual([{ type: 'socks', tag: HOSTILE, server: '127.0.0.1', server_port: 1 }]);
    expect(config.outbounds[0]).toMatchObject({ type: 'selector', outbounds: [HOSTILE], default: HOSTILE });
    expect(config.route.final).toBe(config.outbounds[0].tag);
  });

  it.each(['clash', 'clash-meta'] as const)('is %s YAML with one proxy named with the text, one group and a rule', (format) => {
    const yaml = placeholderBody(format, HOSTILE, 'Ünï "VPN"').toString('utf8');
    const proxies = yamlList(yaml, 'proxies');
    expect(proxies.map((name) => JSON.parse(name))).toEqual([HOSTILE]);
    expect(yaml).toMatch(/^ {4}type: socks5\n {4}server: 127\.0\.0\.1\n {4}port: 1$/m);
    expect(yamlList(yaml, 'proxy-groups').map((name) => JSON.parse(name))).toEqual(['Ünï "VPN"']);
    expect(yaml).toContain(`      - ${JSON.stringify(HOSTILE)}`);
    expect(yamlList(yaml, 'rules').map((rule) => JSON.parse(rule))).toEqual(['MATCH,Ünï "VPN"']);
    // The text's line break stays inside its quoted name: no line of its own.
    expect(yaml.split('\n').some((line) => line.startsWith('next:'))).toBe(false);
  });

  it('names no host but 127.0.0.1 in any format', () => {
    for (const format of SUBSCRIPTION_FORMATS) {
      const body = placeholderBody(format, TEXT, 'Lumen VPN').toString(format === 'base64' ? 'latin1' : 'utf8');
      const text = format === 'base64' ? Buffer.from(body, 'base64').toString('utf8') : body;
      const hosts = [...text.matchAll(/(?:@|server: |"server": ")([^:"\s/?#]+)/g)].map((m) => m[1]);
      expect(hosts.length, format).toBeGreaterThan(0);
      expect(new Set(hosts), format).toEqual(new Set(['127.0.0.1']));
    }
  });
});
