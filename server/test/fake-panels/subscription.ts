import { text, type PanelResponse } from './http.js';

/** One proxy server of a subscription, from which every format is rendered. */
export interface ProxyServer {
  protocol: 'vless' | 'vmess' | 'trojan' | 'shadowsocks';
  /** The remark (`DE-user_1`). */
  name: string;
  host: string;
  port: number;
  network: 'tcp' | 'ws';
  tls: boolean;
  /** vless / vmess. */
  uuid?: string;
  /** trojan / shadowsocks. */
  password?: string;
  /** shadowsocks cipher. */
  method?: string;
  path?: string;
}

export type SubscriptionFormat = 'links' | 'base64' | 'clash' | 'clash-meta' | 'sing-box' | 'xray' | 'outline' | 'wireguard';

/** An anchored User-Agent rule: the first that matches picks the format. */
export type UserAgentRule = [RegExp, SubscriptionFormat];

/** The clients.md rules, shared by both panels (then each panel's own extras, then base64). */
export const COMMON_RULES: UserAgentRule[] = [
  [/^(clash-verge|clash[-.]?meta|flclash|mihomo)/i, 'clash-meta'],
  [/^(clash|stash)/i, 'clash'],
  [/^(sfa|sfi|sfm|sft|karing|hiddifynext)/i, 'sing-box'],
];

export function formatForUserAgent(userAgent: string, rules: UserAgentRule[]): SubscriptionFormat {
  return rules.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'base64';
}

export function wantsHtml(accept: string | undefined): boolean {
  return (accept ?? '').includes('text/html');
}

/** The link the panels hand to an inactive user instead of real servers: never a working config. */
export function placeholderServer(remark = 'disabled'): ProxyServer {
  return {
    protocol: 'vmess',
    name: remark,
    host: '127.0.0.1',
    port: 1,
    network: 'tcp',
    tls: false,
    uuid: '00000000-0000-0000-0000-000000000000',
  };
}

const b64 = (value: string): string => Buffer.from(value, 'utf8').toString('base64');

export function toLink(s: ProxyServer): string {
  const remark = encodeURIComponent(s.name);
  const transport = s.network === 'ws' ? `type=ws&path=${encodeURIComponent(s.path ?? '/')}&host=${s.host}` : 'type=tcp';
  const security = s.tls ? `security=tls&${transport}&sni=${s.host}` : `security=none&${transport}`;
  switch (s.protocol) {
    case 'vless':
      return `vless://${s.uuid}@${s.host}:${s.port}?${security}#${remark}`;
    case 'trojan':
      return `trojan://${encodeURIComponent(s.password ?? '')}@${s.host}:${s.port}?${security}#${remark}`;
    case 'shadowsocks':
      return `ss://${b64(`${s.method}:${s.password}`)}@${s.host}:${s.port}#${remark}`;
    case 'vmess':
      return `vmess://${b64(
        JSON.stringify({
          add: s.host,
          aid: '0',
          host: s.network === 'ws' ? s.host : '',
          id: s.uuid,
          net: s.network,
          path: s.network === 'ws' ? (s.path ?? '/') : '',
          port: String(s.port),
          ps: s.name,
          scy: 'auto',
          sni: s.tls ? s.host : '',
          tls: s.tls ? 'tls' : '',
          type: 'none',
          v: '2',
        }),
      )}`;
  }
}

/** YAML scalar: JSON strings are valid YAML double-quoted scalars. */
const q = (value: string): string => JSON.stringify(value);

function clashProxy(s: ProxyServer): string[] {
  const lines = [`  - name: ${q(s.name)}`];
  const add = (key: string, value: string | number | boolean): number => lines.push(`    ${key}: ${value}`);
  add('type', s.protocol === 'shadowsocks' ? 'ss' : s.protocol);
  add('server', q(s.host));
  add('port', s.port);
  if (s.protocol === 'shadowsocks') {
    add('cipher', q(s.method ?? ''));
    add('password', q(s.password ?? ''));
  } else {
    if (s.protocol === 'trojan') add('password', q(s.password ?? ''));
    else add('uuid', q(s.uuid ?? ''));
    if (s.protocol === 'vmess') {
      add('alterId', 0);
      add('cipher', 'auto');
    }
    add('network', s.network);
    if (s.network === 'ws') lines.push('    ws-opts:', `      path: ${q(s.path ?? '/')}`);
    add('tls', s.tls);
    if (s.tls) add(s.protocol === 'trojan' ? 'sni' : 'servername', q(s.host));
  }
  add('udp', true);
  return lines;
}

export function clashYaml(servers: ProxyServer[]): string {
  const names = servers.map((s) => `      - ${q(s.name)}`);
  return [
    'mixed-port: 7890',
    'allow-lan: false',
    'mode: rule',
    'log-level: info',
    servers.length ? 'proxies:' : 'proxies: []',
    ...servers.flatMap(clashProxy),
    'proxy-groups:',
    '  - name: Proxy',
    '    type: select',
    '    proxies:',
    ...(names.length ? names : ['      - DIRECT']),
    'rules:',
    '  - MATCH,Proxy',
    '',
  ].join('\n');
}

function singBoxOutbound(s: ProxyServer): Record<string, unknown> {
  const out: Record<string, unknown> = { type: s.protocol, tag: s.name, server: s.host, server_port: s.port };
  if (s.protocol === 'shadowsocks') return { ...out, method: s.method, password: s.password };
  if (s.protocol === 'trojan') out.password = s.password;
  else out.uuid = s.uuid;
  if (s.protocol === 'vmess') Object.assign(out, { security: 'auto', alter_id: 0 });
  if (s.network === 'ws') out.transport = { type: 'ws', path: s.path ?? '/', headers: { Host: s.host } };
  if (s.tls) out.tls = { enabled: true, server_name: s.host };
  return out;
}

export function singBoxJson(servers: ProxyServer[]): string {
  const names = servers.map((s) => s.name);
  return JSON.stringify(
    {
      log: { level: 'warn', timestamp: true },
      inbounds: [{ type: 'mixed', tag: 'mixed-in', listen: '127.0.0.1', listen_port: 2080 }],
      outbounds: [
        { type: 'selector', tag: 'proxy', outbounds: names.length ? names : ['direct'] },
        ...servers.map(singBoxOutbound),
        { type: 'direct', tag: 'direct' },
      ],
      route: { final: 'proxy' },
    },
    null,
    2,
  );
}

function xrayOutbound(s: ProxyServer): Record<string, unknown> {
  let settings: Record<string, unknown>;
  if (s.protocol === 'vless' || s.protocol === 'vmess') {
    const user = s.protocol === 'vless' ? { id: s.uuid, encryption: 'none' } : { id: s.uuid, alterId: 0, security: 'auto' };
    settings = { vnext: [{ address: s.host, port: s.port, users: [user] }] };
  } else if (s.protocol === 'trojan') {
    settings = { servers: [{ address: s.host, port: s.port, password: s.password }] };
  } else {
    settings = { servers: [{ address: s.host, port: s.port, method: s.method, password: s.password }] };
  }
  const streamSettings: Record<string, unknown> = { network: s.network, security: s.tls ? 'tls' : 'none' };
  if (s.tls) streamSettings.tlsSettings = { serverName: s.host };
  if (s.network === 'ws') streamSettings.wsSettings = { path: s.path ?? '/', headers: { Host: s.host } };
  return { tag: 'proxy', protocol: s.protocol, settings, streamSettings };
}

/** Xray JSON (v2rayN / v2rayNG "custom config"): one full config per server. */
export function xrayJson(servers: ProxyServer[]): string {
  return JSON.stringify(
    servers.map((s) => ({
      remarks: s.name,
      log: { loglevel: 'warning' },
      inbounds: [{ tag: 'socks', port: 10808, listen: '127.0.0.1', protocol: 'socks', settings: { udp: true } }],
      outbounds: [xrayOutbound(s), { tag: 'direct', protocol: 'freedom' }],
    })),
    null,
    2,
  );
}

/** Outline (Shadowsocks) JSON: the first shadowsocks server, `{}` without one. */
export function outlineJson(servers: ProxyServer[]): string {
  const s = servers.find((x) => x.protocol === 'shadowsocks');
  return JSON.stringify(s ? { server: s.host, server_port: s.port, password: s.password, method: s.method, tag: s.name } : {});
}

/** The body and media type of one subscription format (Starlette adds the charset to text/*). */
export function renderSubscription(format: SubscriptionFormat, servers: ProxyServer[]): { body: string; contentType: string } {
  const links = servers.map(toLink).join('\n');
  switch (format) {
    case 'links':
      return { body: links, contentType: 'text/plain; charset=utf-8' };
    case 'base64':
      return { body: b64(links), contentType: 'text/plain; charset=utf-8' };
    case 'clash':
    case 'clash-meta':
      return { body: clashYaml(servers), contentType: 'text/yaml; charset=utf-8' };
    case 'sing-box':
      return { body: singBoxJson(servers), contentType: 'application/json' };
    case 'xray':
      return { body: xrayJson(servers), contentType: 'application/json' };
    case 'outline':
      return { body: outlineJson(servers), contentType: 'application/json' };
    case 'wireguard':
      return { body: '', contentType: 'text/plain; charset=utf-8' };
  }
}

export interface SubscriptionMeta {
  username: string;
  usedBytes: number;
  limitBytes: number | null;
  expireUnix: number;
  profileTitle: string;
  supportUrl: string;
  updateIntervalHours: number;
  pageUrl: string;
}

export function subscriptionHeaders(meta: SubscriptionMeta): Record<string, string> {
  return {
    'content-disposition': `attachment; filename="${meta.username}"`,
    'profile-web-page-url': meta.pageUrl,
    'support-url': meta.supportUrl,
    'profile-title': `base64:${b64(meta.profileTitle)}`,
    'profile-update-interval': String(meta.updateIntervalHours),
    'subscription-userinfo': `upload=0; download=${meta.usedBytes}; total=${meta.limitBytes ?? 0}; expire=${meta.expireUnix}`,
  };
}

export function subscriptionResponse(format: SubscriptionFormat, servers: ProxyServer[], meta: SubscriptionMeta): PanelResponse {
  const { body, contentType } = renderSubscription(format, servers);
  return text(200, body, contentType, subscriptionHeaders(meta));
}

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

/** The subscription page a browser gets (`Accept: text/html`). */
export function subscriptionPage(username: string, status: string, servers: ProxyServer[]): PanelResponse {
  const items = servers.map((s) => `      <li><code>${escapeHtml(toLink(s))}</code></li>`).join('\n');
  const body = `<!DOCTYPE html>
<html lang="en">
  <head><meta charset="utf-8"><title>${escapeHtml(username)} subscription</title></head>
  <body>
    <h1>${escapeHtml(username)}</h1>
    <p>Status: ${escapeHtml(status)}</p>
    <ul>
${items}
    </ul>
  </body>
</html>
`;
  return text(200, body, 'text/html; charset=utf-8');
}
