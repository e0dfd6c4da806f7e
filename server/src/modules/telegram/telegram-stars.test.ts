import { beforeAll, describe, expect, it } from 'vitest';
import { GB } from '../../../test/billing-fixture.js';
import { emailOf } from '../../../test/billing-mail.js';
import { asMarzneshinUser } from '../../../test/fake-panels/marzneshin.js';
import { mailParts } from '../../../test/smtp-catcher.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { buttons, useTelegramFixture, type TelegramSender as Person } from '../../../test/telegram-kit.js';
import type { DesktopSession } from '../../../test/test-app.js';

const TOKEN = '7000021:AAFixtureBotTokenForStarsPayments12345';
const BOT = { id: 7000021, username: 'lumen_stars_bot', first_name: 'Lumen VPN' };
const STARS = 250;

describe.each(TEST_DATABASES)('paying in Telegram Stars from the bot (%s)', (kind) => {
  const { f, telegram, say, tap, deliver, pointWebhookAtApp } = useTelegramFixture(kind, { token: TOKEN, info: BOT });
  let starsPlanId: string;
  let nextPerson = 9100;
  let nextUpdate = 500_000;

  beforeAll(async () => {
    const saved = await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true, botToken: TOKEN });
    expect(saved.statusCode, saved.body).toBe(200);
    await pointWebhookAtApp();
    const plan = await f.call(f.admin, 'POST', '/api/admin/plans', { name: 'Stars Month', days: 30, dataLimitBytes: 20 * GB, price: 499, starsPrice: STARS });
    expect(plan.statusCode, plan.body).toBe(201);
    starsPlanId = plan.json().id;
  });

  /** A customer of the site whose Telegram is linked (through the dashboard's one-time link). */
  async function linkedCustomer(): Promise<{ customer: DesktopSession; person: Person }> {
    const customer = await f.newUser();
    const person = { id: (nextPerson += 1), first_name: 'Ann' };
    const url = (await f.call(customer, 'POST', '/api/me/telegram-link')).json().url as string;
    const replies = await say(person, `/start ${new URL(url).searchParams.get('start')}`);
    expect(replies[0]!.text).toContain('linked to your');
    return { customer, person };
  }

  /** The ⭐ button of a plan pressed: the invoice link the bot answered with, and the order it made. */
  async function orderStars(person: Person, data = `stars:plan:${starsPlanId}`) {
    const replies = await tap(person, data);
    const pay = buttons(replies[0]!).find((button) => button.url?.startsWith('https://t.me/$'));
    expect(pay, replies[0]?.text).toBeDefined();
    const invoice = telegram().invoices.find((made) => made.link === pay!.url)!;
    return { reply: replies[0]!, link: pay!.url!, invoice, transactionId: invoice.payload };
  }

  const transaction = (id: string) => f.env.database.db('transactions').where({ id }).first();
  const periodsOf = (transactionId: string) => f.count('paid_periods', { transaction_id: transactionId });
  const successfulPayment = (person: Person, payload: string, chargeId: string, stars = STARS) => ({
    update_id: (nextUpdate += 1),
    message: {
      message_id: nextUpdate,
      date: Math.floor(Date.now() / 1000),
      chat: { id: person.id, type: 'private', first_name: 'Ann' },
      from: { id: person.id, is_bot: false, first_name: 'Ann' },
      successful_payment: {
        currency: 'XTR',
        total_amount: stars,
        invoice_payload: payload,
        telegram_payment_charge_id: chargeId,
        provider_payment_charge_id: '',
      },
    },
  });

  it('sells a plan for its Stars price: the ⭐ button, an XTR invoice for the order, the pre-checkout answered, the account delivered once', async () => {
    const { customer, person } = await linkedCustomer();
    const plan = await tap(person, `plan:${starsPlanId}`);
    const star = buttons(plan[0]!).find((button) => button.callback_data === `stars:plan:${starsPlanId}`);
    expect(star?.text).toBe('⭐ Pay 250 Stars');

    const { reply, link, invoice, transactionId } = await orderStars(person);
    expect(reply.text).toContain('Stars Month');
    expect(buttons(reply).find((button) => button.url === link)?.text).toBe('Pay ⭐250');
    expect(invoice).toMatchObject({
      method: 'createInvoiceLink',
      currency: 'XTR',
      prices: [{ label: 'Stars Month', amount: STARS }],
      subscriptionPeriod: null,
    });
    expect(await transaction(transactionId)).toMatchObject({ status: 'pending', currency: 'xtr', amount: STARS, user_id: customer.userId });

    const paid = await telegram().payInvoice(TOKEN, { userId: person.id, link });
    expect(paid).toMatchObject({ approved: true, errorMessage: null });
    expect(await transaction(transactionId)).toMatchObject({ status: 'succeeded', provider_payment_id: paid.chargeId });
    expect(
      telegram()
        .sent.filter((sent) => sent.chatId === person.id)
        .at(-1)?.text,
    ).toContain('Thank you! ⭐250 received');
    await f.runJobs();
    const accounts = (await f.call(customer, 'GET', '/api/accounts')).json() as Array<{ status: string; planName: string }>;
    expect(accounts).toEqual([expect.objectContaining({ status: 'active', planName: 'Stars Month' })]);
    expect(await periodsOf(transactionId)).toBe(1);

    // Telegram sends the same payment again (the same update, or another one carrying it): nothing more happens.
    expect((await deliver(paid.successfulPaymentUpdate!)).status).toBe(200);
    expect((await deliver(successfulPayment(person, transactionId, paid.chargeId!))).status).toBe(200);
    await f.runJobs();
    expect(await periodsOf(transactionId)).toBe(1);
    expect(await f.count('vpn_accounts', { user_id: customer.userId })).toBe(1);
    expect(telegram().refunds).toEqual([]);
  });

  it('refuses at the pre-checkout query an order that closed, or for another amount, and Telegram takes nothing', async () => {
    const { person } = await linkedCustomer();
    const { link, transactionId } = await orderStars(person);
    f.t.clock.advance(61 * 60);
    const refused = await telegram().payInvoice(TOKEN, { userId: person.id, link });
    expect(refused).toMatchObject({ approved: false, chargeId: null, errorMessage: 'This order has closed. Open /plans in the bot to pay for a new one.' });
    expect(await transaction(transactionId)).toMatchObject({ status: 'pending' });

    // A query for an order that is not ours, or for another amount, in the person's language.
    const ru = { id: (nextPerson += 1), language_code: 'ru' };
    const { transactionId: other } = await orderStars((await linkedCustomer()).person);
    for (const [payload, amount] of [
      ['not-an-order', STARS],
      [other, STARS - 1],
    ] as const) {
      const before = telegram().preCheckoutAnswers.length;
      const id = `${(nextUpdate += 1)}`;
      // Through Telegram (the fake), which knows the query and waits for its answer.
      const res = await telegram().deliver(TOKEN, {
        update_id: nextUpdate,
        pre_checkout_query: {
          id,
          from: { id: ru.id, is_bot: false, first_name: 'Ivan', language_code: 'ru' },
          currency: 'XTR',
          total_amount: amount,
          invoice_payload: payload,
        },
      });
      expect(res.status).toBe(200);
      expect(telegram().preCheckoutAnswers.slice(before)).toEqual([
        expect.objectContaining({ queryId: id, ok: false, errorMessage: expect.stringContaining('заказ закрыт') }),
      ]);
    }
  });

  it('delivers Stars paid just as the order closed (Telegram approved them in time), and sends back Stars for an order that is not ours', async () => {
    const { customer, person } = await linkedCustomer();
    const { transactionId } = await orderStars(person);
    // The follow-up closes it once its hour (and a quarter for a payment on its way) has passed.
    f.t.clock.advance(80 * 60);
    await f.runJobs();
    expect((await transaction(transactionId)).status).not.toBe('pending');

    // A late payment is a payment: it is delivered, as a late card payment is.
    telegram().recordStarPayment(TOKEN, { userId: person.id, chargeId: 'stxLateCharge1', amount: STARS, payload: transactionId });
    expect((await deliver(successfulPayment(person, transactionId, 'stxLateCharge1'))).status).toBe(200);
    await f.runJobs();
    expect(await transaction(transactionId)).toMatchObject({ status: 'succeeded', provider_payment_id: 'stxLateCharge1' });
    expect(await f.count('vpn_accounts', { user_id: customer.userId, status: 'active' })).toBe(1);

    // Stars for no order of ours (a payload we never made): nothing to deliver, so they go back at once.
    telegram().recordStarPayment(TOKEN, { userId: person.id, chargeId: 'stxStray1', amount: 10, payload: 'not-an-order' });
    expect((await deliver(successfulPayment(person, 'not-an-order', 'stxStray1', 10))).status).toBe(200);
    expect(telegram().refunds).toContainEqual(expect.objectContaining({ userId: person.id, chargeId: 'stxStray1', amount: 10 }));
    expect(
      telegram()
        .sent.filter((sent) => sent.chatId === person.id)
        .at(-1)?.text,
    ).toContain('were refunded');
    expect(await f.count('vpn_accounts', { user_id: customer.userId })).toBe(1);
  });

  it('finds a payment whose update never came in the bot’s Star transactions, and delivers it', async () => {
    const { customer, person } = await linkedCustomer();
    const { transactionId } = await orderStars(person);
    // Telegram took the Stars; its successful_payment never reached us (the site was down, say).
    telegram().recordStarPayment(TOKEN, { userId: person.id, chargeId: 'stxUnheard1', amount: STARS, payload: transactionId });
    f.t.clock.advance(10 * 60);
    await f.runJobs();
    expect(await transaction(transactionId)).toMatchObject({ status: 'succeeded', provider_payment_id: 'stxUnheard1' });
    expect(await f.count('vpn_accounts', { user_id: customer.userId, status: 'active' })).toBe(1);
  });

  it('refunds a Stars payment in full from the admin’s Payments with refundStarPayment, pauses the account and tells the customer; never in part or to the wallet', async () => {
    const { customer, person } = await linkedCustomer();
    const { link, transactionId } = await orderStars(person);
    const paid = await telegram().payInvoice(TOKEN, { userId: person.id, link });
    expect(paid.approved).toBe(true);
    await f.runJobs();
    const [account] = (await f.call(customer, 'GET', '/api/accounts')).json() as Array<{ id: string }>;
    const panelUser = () => [...f.panel.users.values()].map(asMarzneshinUser).find((user) => user.note === account!.id)!;
    const paidUntil = new Date(panelUser().expire_date!).getTime();
    const mailsBefore = f.env.smtp.messages.length;

    const part = await f.call(f.admin, 'POST', `/api/admin/transactions/${transactionId}/refund`, { amount: 100 });
    expect(part.statusCode).toBe(400);
    expect(part.json()).toMatchObject({ code: 'validation_failed', fields: { amount: expect.stringContaining('in full only') } });
    const wallet = await f.call(f.admin, 'POST', `/api/admin/transactions/${transactionId}/refund`, { destination: 'wallet' });
    expect(wallet.statusCode).toBe(409);
    expect(wallet.json().code).toBe('refund_destination');
    expect(telegram().refunds.filter((refund) => refund.chargeId === paid.chargeId)).toEqual([]);

    const whole = await f.call(f.admin, 'POST', `/api/admin/transactions/${transactionId}/refund`, {});
    expect(whole.statusCode, whole.body).toBe(200);
    expect(whole.json()).toMatchObject({ status: 'refunded', amountRefunded: STARS, method: 'stars', currency: 'xtr' });
    expect(telegram().refunds.filter((refund) => refund.chargeId === paid.chargeId)).toEqual([expect.objectContaining({ userId: person.id, amount: STARS })]);
    // As any full refund: the period comes off the account, which is paused on its panel, and the customer is told.
    await f.runJobs();
    expect(panelUser().enabled).toBe(false);
    expect(new Date(panelUser().expire_date!).getTime()).toBeLessThan(paidUntil);
    const mail = await f.env.smtp.waitFor(await emailOf(f, customer), { after: mailsBefore });
    expect(mail.subject).toContain('refunded');
    expect(mailParts(mail).text).toContain('⭐250');
    expect(mailParts(mail).text).toContain('The Stars are back in the Telegram account that paid them already.');
    // The linked customer reads it in Telegram too (refunds are billing notices, which go by every channel).
    expect(telegram().sent.some((sent) => sent.chatId === person.id && sent.text?.includes('refunded') && sent.text.includes('⭐250'))).toBe(true);
    // The payment is listed with its method, and the e-mailed receipt named the Stars.
    const listed = (await f.call(f.admin, 'GET', '/api/admin/transactions?method=stars')).json() as
      { transactions?: Array<{ id: string }> } | Array<{ id: string }>;
    expect(JSON.stringify(listed)).toContain(transactionId);
  });

  it('offers no ⭐ on a plan without a Stars price and refuses it if asked; asks someone unlinked to link first; the site never takes Stars', async () => {
    const { person } = await linkedCustomer();
    const plan = await tap(person, `plan:${f.paidPlanId}`);
    expect(buttons(plan[0]!).some((button) => button.callback_data?.startsWith('stars:'))).toBe(false);
    const before = await f.count('transactions');
    expect((await tap(person, `stars:plan:${f.paidPlanId}`))[0]!.text).toBe('This plan is not sold for Telegram Stars.');
    expect((await tap({ id: (nextPerson += 1) }, `stars:plan:${starsPlanId}`))[0]!.text).toContain('link');
    expect(await f.count('transactions')).toBe(before);

    const customer = await f.newUser();
    const web = await f.call(customer, 'POST', '/api/checkout', { planId: starsPlanId, method: 'stars' });
    expect(web.statusCode).toBe(400);
    expect(web.json().code).toBe('validation_failed');
    expect((await f.call(null, 'GET', '/api/plans')).json()).toContainEqual(expect.objectContaining({ id: starsPlanId, starsPrice: STARS }));
  });

  it('answers /paysupport as Telegram requires of bots that sell', async () => {
    const replies = await say({ id: (nextPerson += 1), language_code: 'fa' }, '/paysupport');
    expect(replies[0]!.text).toContain('پشتیبانی تلگرام');
    const en = await say({ id: (nextPerson += 1) }, '/paysupport');
    expect(en[0]!.text).toMatch(/Help with a payment: write to \S+@\S+/);
  });

  // PostgreSQL only (skipped on SQLite): the three must really run at once, and SQLite's single writer runs them one after the other.
  it.runIf(kind === 'postgres')('delivers a payment once when its update, a copy of it and the follow-up’s read come at the same moment', async () => {
    const { customer, person } = await linkedCustomer();
    const { transactionId } = await orderStars(person);
    telegram().recordStarPayment(TOKEN, { userId: person.id, chargeId: 'stxRace1', amount: STARS, payload: transactionId });
    f.t.clock.advance(10 * 60);
    await Promise.all([
      deliver(successfulPayment(person, transactionId, 'stxRace1')),
      deliver(successfulPayment(person, transactionId, 'stxRace1')),
      f.runJobs(),
    ]);
    await f.runJobs();
    expect(await transaction(transactionId)).toMatchObject({ status: 'succeeded', provider_payment_id: 'stxRace1' });
    expect(await periodsOf(transactionId)).toBe(1);
    expect(await f.count('vpn_accounts', { user_id: customer.userId, status: 'active' })).toBe(1);
    expect(telegram().refunds.filter((refund) => refund.chargeId === 'stxRace1')).toEqual([]);
  });

  it('keeps the ⭐ renewal on an account whose plan sells for Stars, and renews the same account', async () => {
    const { customer, person } = await linkedCustomer();
    const { link } = await orderStars(person);
    expect((await telegram().payInvoice(TOKEN, { userId: person.id, link })).approved).toBe(true);
    await f.runJobs();
    const [account] = (await f.call(customer, 'GET', '/api/accounts')).json() as Array<{ id: string; expireDate: string }>;
    const shown = await tap(person, `account:${account!.id}`);
    const renew = shown.flatMap(buttons).find((button) => button.callback_data === `stars:account:${account!.id}`);
    expect(renew?.text).toBe('⭐ Renew for 250 Stars');
    const renewal = await orderStars(person, `stars:account:${account!.id}`);
    expect((await telegram().payInvoice(TOKEN, { userId: person.id, link: renewal.link })).approved).toBe(true);
    await f.runJobs();
    const [renewed] = (await f.call(customer, 'GET', '/api/accounts')).json() as Array<{ id: string; expireDate: string }>;
    expect(renewed!.id).toBe(account!.id);
    expect(new Date(renewed!.expireDate).getTime() - new Date(account!.expireDate).getTime()).toBe(30 * 24 * 3600 * 1000);
  });
});
