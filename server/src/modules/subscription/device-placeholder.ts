/**
 * The configuration a refused device gets (a new device beyond the account's limit, or a client without
 * a device id where the operator refuses those): one entry, in the client's own format, whose name is
 * the reason and what to do. A client imports it like any subscription and shows the name to its user;
 * it points nowhere (127.0.0.1, port 1), never at a node of the panel. Remnawave does the same with its
 * placeholder links; answering an error instead would show most clients' users nothing useful.
 */
import type { SubscriptionFormat } from './subscription-format.js';

const NOWHERE = { host: '127.0.0.1', port: 1, uuid: '00000000-0000-0000-0000-000000000000' } as const;

/** `vless://…#<text>`: the one link of the `links` and `base64` formats. */
export function placeholderLink(text: string): string {
  return `vless://${NOWHERE.uuid}@${NOWHERE.host}:${NOWHERE.port}?type=tcp&security=none#${encodeURIComponent(text)}`;
}

/** sing-box: a selector holding one SOCKS outbound tagged with the text. */
function singBox(text: string): string {
  return `${JSON.stringify(
    {
      log: { level: 'warn' },
      outbounds: [
        { type: 'selector', tag: 'proxy', outbounds: [text], default: text },
        { type: 'socks', tag: text, server: NOWHERE.host, server_port: NOWHERE.port },
        { type: 'direct', tag: 'direct' },
      ],
      route: { final: 'proxy' },
    },
    null,
    2,
  )}\n`;
}

/**
 * Clash and Clash Meta: one SOCKS5 proxy named with the text (both cores know SOCKS5), in one group
 * that every connection goes to. Names are JSON strings, which YAML reads as double-quoted scalars.
 */
function clash(text: string, groupName: string): string {
  const name = JSON.stringify(text);
  const group = JSON.stringify(groupName);
  return [
    'mixed-port: 7890',
    'allow-lan: false',
    'mode: rule',
    'log-level: warning',
    'proxies:',
    `  - name: ${name}`,
    '    type: socks5',
    `    server: ${NOWHERE.host}`,
    `    port: ${NOWHERE.port}`,
    'proxy-groups:',
    `  - name: ${group}`,
    '    type: select',
    '    proxies:',
    `      - ${name}`,
    'rules:',
    `  - ${JSON.stringify(`MATCH,${groupName}`)}`,
    '',
  ].join('\n');
}

/** The placeholder's body in `format`; `groupName` names Clash's proxy group (the brand). */
export function placeholderBody(format: SubscriptionFormat, text: string, groupName: string): Buffer {
  switch (format) {
    case 'links':
      return Buffer.from(placeholderLink(text), 'utf8');
    case 'base64':
      return Buffer.from(Buffer.from(placeholderLink(text), 'utf8').toString('base64'), 'latin1');
    case 'sing-box':
      return Buffer.from(singBox(text), 'utf8');
    case 'clash-meta':
    case 'clash':
      return Buffer.from(clash(text, groupName.trim() || 'Proxy'), 'utf8');
  }
}
