/**
 * The e-mails' texts in English, as ICU messages (plurals and placeholders). Every other language has
 * exactly these keys (checked by the type of each catalogue).
 */
export const en = {
  'frame.sentTo': 'sent to {email}',
  'otp.subject': '{code} is your {brand} sign-in code',
  'otp.title': '{brand} sign-in code',
  'otp.lead': 'Your {brand} sign-in code is:',
  'otp.leadShort': 'Your sign-in code is:',
  'otp.enterWithin': 'Enter it on the sign-in page within {minutes, plural, one {# minute} other {# minutes}}. It works once.',
  'otp.ignore': 'If you did not ask to sign in to {brand}, ignore this e-mail: nobody can sign in without the code.',
} as const;

export type EmailMessageKey = keyof typeof en;
export type EmailCatalogue = Record<EmailMessageKey, string>;
