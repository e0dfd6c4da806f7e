import { beforeAll, describe, expect, it } from 'vitest';
import { GB } from '../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { buttons, useTelegramFixture, type TelegramSender as Person } from '../../../test/telegram-kit.js';
import type { DesktopSession } from '../../../test/test-app.js';

const TOKEN = '7000031:AAFixtureBotTokenForPaidTrials123456';
const BOT = { id: 7000031, username: 'lumen_trial_bot', first_name: 'Lumen VPN' };
const STARS = 25;

/** The bot's /trial when the trial has a price (issue 55): the ways to pay it, as /plans offers them, and once per person. */
describe.each(TEST_DATABASES)('a trial with a price in the Telegram bot (%s)', (kind) => {
  const { f, telegram, say, tap, pointWebhookAtApp } = useTelegramFixture(kind, { token: TOKEN, info: BOT });
  let trialId = '';
  let nextPerson = 9300;

  beforeAll(async () => {
    const saved = await f.call(f.admin, 'PUT', '/api/admin/telegram', { enabled: true, botToken: TOKEN });
    expect(saved.statusCode, saved.body).toBe(200);
    await pointWebhookAtApp();
    // The fixture's free trial is off: the trial is this one, with a price in dollars and in Stars.
    expect((await f.call(f.admin, 'PATCH', `/api/admin/plans/${f.trialPlanId}`, { status: 'disabled' })).statusCode).toBe(200);
    const plan = await f.call(f.admin, 'POST', '/api/admin/plans', {
      name: 'Trial Week',
      days: 7,
      dataLimitBytes: 2 * GB,
      price: 100,
      isTrial: true,
      starsPrice: STARS,
      locations: 'all',
    });
    expect(plan.statusCode, plan.body).toBe(201);
    trialId = plan.json().id;
  });

  async function linkedCustomer(): Promise<{ customer: DesktopSession; person: Person }> {
    const customer = await f.newUser();
    const person = { id: (nextPerson += 1), first_name: 'Ann' };
    const url = (await f.call(customer, 'POST', '/api/me/telegram-link')).json().url as string;
    expect((await say(person, `/start ${new URL(url).searchParams.get('start')}`))[0]!.text).toContain('linked to your');
    return { customer, person };
  }

  it('offers its price with Stars and the site’s methods; paid in Stars it is the person’s trial, and a second is refused', async () => {
    const { customer, person } = await linkedCustomer();
    const offered = await say(person, '/trial');
    expect(offered).toHaveLength(1);
    expect(offered[0]!.text).toBe('The trial costs $1.00 for 7 days, once per person. Choose how to pay:');
    expect(buttons(offered[0]!).map((button) => button.callback_data)).toEqual([`stars:plan:${trialId}`, `site-pay:plan:${trialId}`, 'menu']);
    // Nothing is claimed for free.
    expect(await f.count('vpn_accounts', { user_id: customer.userId })).toBe(0);

    // The site's way: a one-time link to its checkout, named after the trial.
    const site = await tap(person, `site-pay:plan:${trialId}`);
    expect(site[0]!.text).toContain('Trial Week: pay by card or the other ways the website takes');

    const replies = await tap(person, `stars:plan:${trialId}`);
    const pay = buttons(replies[0]!).find((button) => button.url?.startsWith('https://t.me/$'))!;
    expect(pay.text).toBe(`Pay ⭐${STARS}`);
    const paid = await telegram().payInvoice(TOKEN, { userId: person.id, link: pay.url! });
    expect(paid).toMatchObject({ approved: true });
    await f.runJobs();
    expect((await f.call(customer, 'GET', '/api/accounts')).json()).toEqual([expect.objectContaining({ status: 'active', planName: 'Trial Week' })]);
    expect((await f.call(customer, 'GET', '/api/me')).json()).toMatchObject({ trialUsed: true });
    expect(await f.count('vpn_accounts', { trial_user_id: customer.userId })).toBe(1);

    // Once per person: /trial says so, an order in Stars is refused, and so is one on the site.
    expect((await say(person, '/trial'))[0]!.text).toContain('already used your free trial');
    expect((await tap(person, `stars:plan:${trialId}`))[0]!.text).toContain('already used your free trial');
    expect((await f.call(customer, 'POST', '/api/checkout', { planId: trialId })).json()).toMatchObject({ code: 'trial_used' });
    expect(telegram().refunds).toEqual([]);
  });

  it('refuses a second order in Stars while the first waits for its payment', async () => {
    const { person } = await linkedCustomer();
    const first = await tap(person, `stars:plan:${trialId}`);
    expect(buttons(first[0]!).some((button) => button.url?.startsWith('https://t.me/$'))).toBe(true);
    const second = await tap(person, `stars:plan:${trialId}`);
    expect(second[0]!.text).toBe('The payment for your trial is still open. Finish it, or try again once it has closed (within an hour).');
  });
});
