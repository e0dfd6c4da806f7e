import { expect } from 'vitest';
import type { BillingFixture } from './billing-fixture.js';
import type { CaughtMail } from './smtp-catcher.js';
import type { DesktopSession } from './test-app.js';

/** The e-mail address a test user signed in with. */
export async function emailOf(f: BillingFixture, user: DesktopSession): Promise<string> {
  return (await f.env.database.db('user_profiles').where({ id: user.userId }).first()).email;
}

/** The one new e-mail to `to` whose subject matches, after `after` messages. */
export function newMail(f: BillingFixture, to: string, after: number, subject: RegExp): CaughtMail {
  const found = f.env.smtp.messages.slice(after).filter((m) => m.to.includes(to) && subject.test(m.subject));
  expect(
    found.map((m) => m.subject),
    `e-mails to ${to} matching ${subject}`,
  ).toHaveLength(1);
  return found[0]!;
}
