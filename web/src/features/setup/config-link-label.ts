/** "VLESS · Germany" from `vless://…#Germany`: the protocol and the configuration's remark. */
export function describeConfigLink(link: string, index: number): string {
  const scheme = /^([a-z0-9+.-]+):\/\//i.exec(link)?.[1]?.toUpperCase() ?? 'Link';
  const hash = link.indexOf('#');
  let remark = '';
  if (hash >= 0) {
    try {
      remark = decodeURIComponent(link.slice(hash + 1));
    } catch {
      remark = link.slice(hash + 1);
    }
  }
  return remark ? `${scheme} · ${remark}` : `${scheme} configuration ${index + 1}`;
}
