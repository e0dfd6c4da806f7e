import type { I18n } from '@lingui/core';
import type { Formatters } from '../../i18n/format';

/** "VLESS · Germany" from `vless://…#Germany`: the protocol and the configuration's remark. */
export function describeConfigLink(link: string, index: number, _: I18n['_'], format: Formatters): string {
  const scheme = /^([a-z0-9+.-]+):\/\//i.exec(link)?.[1]?.toUpperCase() ?? _('account.configLinks.link');
  const hash = link.indexOf('#');
  let remark = '';
  if (hash >= 0) {
    try {
      remark = decodeURIComponent(link.slice(hash + 1));
    } catch {
      remark = link.slice(hash + 1);
    }
  }
  return remark ? `${scheme}${format.separator}${remark}` : _('account.configLinks.unnamed', { scheme, number: format.number(index + 1) });
}
