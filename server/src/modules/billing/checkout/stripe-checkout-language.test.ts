import { describe, expect, it } from 'vitest';
import { useBillingFixture } from '../../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../../test/databases.js';
import type { DesktopSession } from '../../../../test/test-app.js';

/**
 * Issue 57: Stripe's pages and receipts in the customer's language. The Checkout Session says the language
 * (English as English, Chinese as `zh`, Persian, which Stripe lacks, as `auto`), a one-off line item carries the
 * plan's translated name, and the Stripe customer of a subscription gets the language for its receipts.
 */
describe.each(TEST_DATABASES)("Stripe Checkout in the customer's language (%s)", (kind) => {
  const f = useBillingFixture(kind);

  async function customerIn(locale: string): Promise<DesktopSession> {
    const user = await f.newUser();
    expect((await f.call(user, 'PATCH', '/api/me', { locale })).statusCode).toBe(200);
    return user;
  }

  it("a one-off plan's session has Stripe's locale and the plan's name in the customer's language", async () => {
    const translated = await f.call(f.admin, 'PATCH', `/api/admin/plans/${f.paidPlanId}`, {
      translations: { ru: { name: 'Плюс на месяц' }, fa: { name: 'پلاس ماهانه' }, 'zh-CN': { name: '增强版月付' } },
    });
    expect(translated.statusCode, translated.body).toBe(200);
    const cases = [
      { locale: 'en', stripe: 'en', name: 'Plus Monthly' },
      { locale: 'ru', stripe: 'ru', name: 'Плюс на месяц' },
      { locale: 'zh-CN', stripe: 'zh', name: '增强版月付' },
      { locale: 'fa', stripe: 'auto', name: 'پلاس ماهانه' },
    ];
    for (const c of cases) {
      const { sessionId } = await f.checkout(await customerIn(c.locale), { planId: f.paidPlanId });
      const session = f.stripe.getSession(sessionId)!;
      expect(session.locale, c.locale).toBe(c.stripe);
      // The fake's hosted page shows the line item's product name as Stripe's does.
      const page = await (await fetch(session.url!)).text();
      expect(page, c.locale).toContain(`<h1>${c.name}</h1>`);
    }
  });

  it("a recurring plan's session has the locale, and its Stripe customer the language for receipts", async () => {
    const russian = await customerIn('ru');
    const { sessionId } = await f.checkout(russian, { planId: f.recurringPlanId });
    const session = f.stripe.getSession(sessionId)!;
    expect(session.locale).toBe('ru');
    expect(f.stripe.getCustomer(session.customer as string)!.preferred_locales).toEqual(['ru']);

    const persian = await customerIn('fa');
    const persianSession = f.stripe.getSession((await f.checkout(persian, { planId: f.recurringPlanId })).sessionId)!;
    expect(persianSession.locale).toBe('auto');
    expect(f.stripe.getCustomer(persianSession.customer as string)!.preferred_locales).toEqual([]);
  });

  it("a customer who chooses another language later: their Stripe customer's receipts follow, and Persian falls back to Stripe's default", async () => {
    const customer = await customerIn('ru');
    const { sessionId } = await f.checkout(customer, { planId: f.recurringPlanId });
    const stripeCustomer = () => f.stripe.getCustomer(f.stripe.getSession(sessionId)!.customer as string)!;
    expect(stripeCustomer().preferred_locales).toEqual(['ru']);

    for (const [locale, stripe] of [
      ['zh-CN', ['zh']],
      ['fa', []],
      ['en', ['en']],
    ] as const) {
      expect((await f.call(customer, 'PATCH', '/api/me', { locale })).statusCode).toBe(200);
      await f.runJobs();
      expect(stripeCustomer().preferred_locales, locale).toEqual(stripe);
    }

    // The same language again, or a customer with no Stripe customer: nothing is queued.
    const queued = () => f.count('jobs', { type: 'sync_customer_language' });
    const before = await queued();
    expect((await f.call(customer, 'PATCH', '/api/me', { locale: 'en' })).statusCode).toBe(200);
    expect((await f.call(await f.newUser(), 'PATCH', '/api/me', { locale: 'ru' })).statusCode).toBe(200);
    expect(await queued()).toBe(before);
  });
});
