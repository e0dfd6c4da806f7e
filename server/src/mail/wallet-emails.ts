import { DEFAULT_LOCALE, localizedPath } from '../../../shared/locales.js';
import { composeBillingEmail, speaker, type BillingEmailBase } from './billing-emails.js';
import type { MailMessage } from './mailer.js';

export interface WalletRenewalShortEmailInput extends BillingEmailBase {
  accountName: string;
  planName: string;
  /** What the renewal costs, and what the balance is short of (minor units of `currency`). */
  price: number;
  needed: number;
  currency: string;
  /** When the account's paid time ends. */
  endsAt: Date;
  /** The renewal was tried (a day before the end) and could not be paid; otherwise it is coming up. */
  final: boolean;
}

/**
 * An account set to renew from the balance whose balance will not cover it: told ahead (3 days before it
 * ends), and again when the renewal could not be paid, with a link to top up.
 */
export function renderWalletRenewalShortEmail(input: WalletRenewalShortEmailInput): MailMessage {
  const { t, day, money } = speaker(input);
  const values = {
    account: input.accountName,
    plan: input.planName,
    day: day(input.endsAt),
    price: money(input.price, input.currency),
    needed: money(input.needed, input.currency),
  };
  const walletUrl = new URL(localizedPath(input.locale ?? DEFAULT_LOCALE, '/wallet'), input.publicUrl).href;
  return composeBillingEmail(input, t(input.final ? 'wallet.renewal.failedSubject' : 'wallet.renewal.shortSubject', values), [
    { kind: 'lead', text: t(input.final ? 'wallet.renewal.failedLead' : 'wallet.renewal.shortLead', values) },
    { kind: 'text', text: t('wallet.renewal.topUp', values) },
    { kind: 'button', label: t('wallet.renewal.button'), href: walletUrl },
  ]);
}
