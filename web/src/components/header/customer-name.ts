import type { I18n } from '@lingui/core';
import type { Me } from '../../../../shared/auth.js';

/** How the site names a signed-in customer: their e-mail, or — for one who came through the Telegram bot without one — "Telegram customer". */
export function customerName(user: Pick<Me, 'email'>, _: I18n['_']): string {
  return user.email ?? _('common.telegramCustomer');
}
