import { composeBillingEmail, speaker, type BillingEmailBase } from './billing-emails.js';
import type { MailMessage } from './mailer.js';
import { DEFAULT_LOCALE, localizedPath } from '../../../shared/locales.js';

export interface SubscriptionLinkMovedEmailInput extends BillingEmailBase {
  accountName: string;
  /** The account's link on the domain links are now issued on. */
  link: string;
}

/** The subscription domain an account's link was on was blocked (or replaced): its new link, and what to do with it. */
export function renderSubscriptionLinkMovedEmail(input: SubscriptionLinkMovedEmailInput): MailMessage {
  const { t } = speaker(input);
  const values = { account: input.accountName, link: input.link };
  const dashboard = new URL(localizedPath(input.locale ?? DEFAULT_LOCALE, '/dashboard'), input.publicUrl).href;
  return composeBillingEmail(input, t('subscriptionLink.movedSubject', values), [
    { kind: 'lead', text: t('subscriptionLink.movedLead', values) },
    { kind: 'facts', rows: [[t('subscriptionLink.newLink'), input.link]] },
    { kind: 'text', text: t('subscriptionLink.whatToDo') },
    { kind: 'button', label: t('subscriptionLink.button'), href: dashboard },
  ]);
}
