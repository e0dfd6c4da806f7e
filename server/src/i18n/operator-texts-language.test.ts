import { beforeAll, describe, expect, it } from 'vitest';
import { useBillingFixture } from '../../test/billing-fixture.js';
import { emailOf, newMail } from '../../test/billing-mail.js';
import { BTCPAY, useFakeBtcpay } from '../../test/btcpay-fixture.js';
import { TEST_DATABASES } from '../../test/databases.js';
import { mailParts } from '../../test/smtp-catcher.js';
import type { DesktopSession } from '../../test/test-app.js';
import { createJobsRepo } from '../jobs/jobs.repo.js';
import { SEND_BILLING_EMAIL } from '../modules/billing/billing-notices.js';
import { SEND_RENEWAL_REMINDERS } from '../modules/billing/recurring/send-renewal-reminders.js';

const DAY = 24 * 3600;

/**
 * The plan names an operator writes in the admin (plan translations) reach the customer in the customer's
 * language: on the payment provider's page, and in the e-mails about what they bought.
 */
describe.each(TEST_DATABASES)("the operator's plan names in the customer's language (%s)", (kind) => {
  const f = useBillingFixture(kind);
  const shop = useFakeBtcpay(f);

  const speaks = async (user: DesktopSession, locale: string) => {
    const res = await f.call(user, 'PATCH', '/api/me', { locale });
    expect(res.statusCode, res.body).toBe(200);
  };
  const translate = async (planId: string, translations: object) => {
    const res = await f.call(f.admin, 'PATCH', `/api/admin/plans/${planId}`, { translations });
    expect(res.statusCode, res.body).toBe(200);
  };
  const pageOf = async (url: string) => (await fetch(url)).text();

  beforeAll(async () => {
    await translate(f.recurringPlanId, { ru: { name: 'Плюс Авто' }, fa: { name: 'پلاس خودکار' } });
    await translate(f.paidPlanId, { ru: { name: 'Плюс на месяц' }, 'zh-CN': { name: '高级版月付' } });
  });

  it("a Russian customer of a recurring plan: Stripe's page names it in Russian, and so do the receipt, reminder and refund e-mails", async () => {
    const user = await f.newUser();
    await speaks(user, 'ru');
    const email = await emailOf(f, user);

    const { sessionId } = await f.checkout(user, { planId: f.recurringPlanId });
    const session = f.stripe.getSession(sessionId)!;
    expect(session.locale).toBe('ru');
    // The line item is the plan's Stripe product (one for every customer); the Russian name is said above the button.
    expect(session.custom_text.submit?.message).toBe('Плюс Авто · 30 дней · 10 ГБ · Все локации');
    expect(await pageOf(session.url!)).toContain('Плюс Авто · 30 дней · 10 ГБ · Все локации');

    let before = f.env.smtp.messages.length;
    const completed = await f.stripe.pay(sessionId);
    await f.runJobs();
    const subscriptionId = (completed.data.object as { subscription: string }).subscription;
    expect(f.stripe.getSubscription(subscriptionId)?.description).toBe('Плюс Авто');
    const receipt = mailParts(newMail(f, email, before, /квитанция об оплате/));
    expect(receipt.text).toContain('за «Плюс Авто»');
    expect(receipt.html).toContain('Плюс Авто');
    expect(receipt.text).not.toContain('Plus Auto');
    // The dashboard's lists and dialogs name it from the names kept with the order, even once it is off sale (issue 57).
    const [subscription] = (await f.call(user, 'GET', '/api/subscriptions')).json();
    expect(subscription).toMatchObject({ planName: 'Plus Auto', planNames: { ru: 'Плюс Авто', fa: 'پلاس خودکار' } });
    const [payment] = (await f.call(user, 'GET', '/api/transactions')).json();
    expect(payment).toMatchObject({ planName: 'Plus Auto', planNames: { ru: 'Плюс Авто', fa: 'پلاس خودکار' } });

    before = f.env.smtp.messages.length;
    f.t.clock.advance(28 * DAY);
    try {
      await createJobsRepo(f.env.database.db).enqueue(
        { type: SEND_RENEWAL_REMINDERS, payload: {}, dedupeKey: `operator-texts-reminders-${kind}-${Date.now()}` },
        f.t.clock.now(),
      );
      await f.runJobs();
    } finally {
      f.t.clock.advance(-28 * DAY);
    }
    const reminder = mailParts(newMail(f, email, before, /ваша подписка продлится/));
    expect(reminder.text).toContain('Плюс Авто');
    expect(reminder.text).not.toContain('Plus Auto');

    const [transaction] = (await f.call(user, 'GET', '/api/transactions')).json();
    before = f.env.smtp.messages.length;
    expect((await f.call(f.admin, 'POST', `/api/admin/transactions/${transaction.id}/refund`, {})).statusCode).toBe(200);
    await f.runJobs();
    expect(mailParts(newMail(f, email, before, /возвращ/)).text).toContain('за «Плюс Авто» возвращён');
  });

  it('a Chinese customer of a one-off plan: the line item is the Chinese name and description; a customer in a language without one reads English', async () => {
    const chinese = await f.newUser();
    await speaks(chinese, 'zh-CN');
    const { sessionId } = await f.checkout(chinese, { planId: f.paidPlanId });
    const session = f.stripe.getSession(sessionId)!;
    expect(session.locale).toBe('zh');
    const page = await pageOf(session.url!);
    expect(page).toContain('<h1>高级版月付</h1>');
    expect(page).toContain('30 天 · 10 GB · 所有地区');
    expect(session.custom_text.submit).toBeNull();

    const persian = await f.newUser();
    await speaks(persian, 'fa');
    const fallback = f.stripe.getSession((await f.checkout(persian, { planId: f.paidPlanId })).sessionId)!;
    expect(await pageOf(fallback.url!)).toContain('<h1>Plus Monthly</h1>');
  });

  it("an English customer's checkout and receipt read as before", async () => {
    const user = await f.newUser();
    const email = await emailOf(f, user);
    const { sessionId } = await f.checkout(user, { planId: f.paidPlanId });
    const session = f.stripe.getSession(sessionId)!;
    expect(await pageOf(session.url!)).toContain('<h1>Plus Monthly</h1>');
    expect(await pageOf(session.url!)).toContain('30 days · 10 GB · All locations');
    expect(session.custom_text.submit).toBeNull();
    const before = f.env.smtp.messages.length;
    await f.stripe.pay(sessionId);
    await f.runJobs();
    expect(mailParts(newMail(f, email, before, /receipt/)).text).toContain('Plus Monthly');
  });

  it("a Russian customer's trial (no order behind it): the e-mail that it is ending names the trial in Russian", async () => {
    await translate(f.trialPlanId, { ru: { name: 'Пробный на 3 часа' } });
    const user = await f.newUser();
    await speaks(user, 'ru');
    const claimed = await f.call(user, 'POST', '/api/accounts', { planId: f.trialPlanId });
    expect(claimed.statusCode, claimed.body).toBe(201);
    const account = claimed.json() as { id: string };
    const before = f.env.smtp.messages.length;
    const endsAt = new Date(Date.now() + 2 * DAY * 1000).toISOString();
    await createJobsRepo(f.env.database.db).enqueue(
      {
        type: SEND_BILLING_EMAIL,
        payload: { kind: 'plan_ending', accountId: account.id, endsAt },
        dedupeKey: `test-plan-ending:${account.id}`,
        maxAttempts: 3,
      },
      new Date(),
    );
    await f.runJobs();
    expect(mailParts(newMail(f, await emailOf(f, user), before, /ваш тариф заканчивается/)).text).toContain('«Пробный на 3 часа»');
  });

  it("an order from before names were kept with orders reads its plan's translation now, unless the plan was renamed since", async () => {
    /** A paid order whose stored metadata is as an older server wrote it: no `plan_names`, and `plan_name` as given. */
    const paidAsBefore = async (planName: string) => {
      const user = await f.newUser();
      await speaks(user, 'ru');
      const { sessionId, subscriptionId } = await f.checkout(user, { planId: f.paidPlanId });
      const { db } = f.env.database;
      const row = await db('subscriptions').where({ id: subscriptionId }).first();
      const { plan_names: _kept, ...metadata } = typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata;
      await db('subscriptions')
        .where({ id: subscriptionId })
        .update({ metadata: JSON.stringify({ ...metadata, plan_name: planName }) });
      await db('transactions')
        .where({ subscription_id: subscriptionId })
        .update({ metadata: JSON.stringify({ plan_name: planName, kind: 'purchase' }) });
      const before = f.env.smtp.messages.length;
      await f.stripe.pay(sessionId);
      await f.runJobs();
      return mailParts(newMail(f, await emailOf(f, user), before, /квитанция об оплате/)).text;
    };
    expect(await paidAsBefore('Plus Monthly')).toContain('за «Плюс на месяц»');
    expect(await paidAsBefore('Plus Monthly Classic')).toContain('за «Plus Monthly Classic»');
  });

  it('a Russian customer paying in crypto: the BTCPay invoice names the plan in Russian', async () => {
    const saved = await f.call(f.admin, 'PUT', '/api/admin/payments/crypto', { ...BTCPAY, enabled: true, serverUrl: shop.fake.url });
    expect(saved.statusCode, saved.body).toBe(200);
    const user = await f.newUser();
    await speaks(user, 'ru');
    const res = await f.call(user, 'POST', '/api/checkout', { planId: f.paidPlanId, method: 'crypto' });
    expect(res.statusCode, res.body).toBe(200);
    expect(shop.fake.getInvoice(res.json().sessionId)!.metadata.itemDesc).toBe('Плюс на месяц');
  });
});
