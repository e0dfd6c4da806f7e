import { composeBillingEmail, speaker, type BillingEmailBase } from './billing-emails.js';
import type { MailMessage } from './mailer.js';

/** "Your account has been deleted" (`DELETE /api/me`): sent to the address it had, once everything is erased. */
export function renderAccountDeletedEmail(input: BillingEmailBase & { deletedAt: Date }): MailMessage {
  const { t, day } = speaker(input);
  return composeBillingEmail(input, t('account.deleted.subject'), [
    { kind: 'lead', text: t('account.deleted.lead', { day: day(input.deletedAt) }) },
    { kind: 'text', text: t('account.deleted.kept') },
    { kind: 'text', text: t('account.deleted.notYou') },
  ]);
}
