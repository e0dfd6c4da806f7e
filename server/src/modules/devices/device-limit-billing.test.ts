import { describe, expect, it } from 'vitest';
import { emailOf } from '../../../test/billing-mail.js';
import { useBillingFixture } from '../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { mailParts } from '../../../test/smtp-catcher.js';

/** A paid plan's device limit reaches the account through checkout, fulfilment and a renewal. */
describe.each(TEST_DATABASES)("a paid plan's device limit (%s)", (kind) => {
  const f = useBillingFixture(kind);
  const setPlanLimit = async (planId: string, deviceLimit: number | null) => {
    const res = await f.call(f.admin, 'PATCH', `/api/admin/plans/${planId}`, { deviceLimit });
    expect(res.statusCode, res.body).toBe(200);
  };
  const rowLimit = async (accountId: string) => (await f.env.database.db('vpn_accounts').where({ id: accountId }).first()).device_limit;

  it("is copied onto the account bought on it, and the plan's limit then is copied again when it is renewed", async () => {
    await setPlanLimit(f.paidPlanId, 2);
    const user = await f.newUser();
    const accountId = await f.buyAccount(user);
    expect(await rowLimit(accountId)).toBe(2);
    expect((await f.call(user, 'GET', '/api/accounts')).json()[0]).toMatchObject({ id: accountId, deviceLimit: 2 });

    await setPlanLimit(f.paidPlanId, 5);
    expect(await rowLimit(accountId)).toBe(2); // changing the plan does not change accounts already bought
    const renewal = await f.checkout(user, { accountId });
    await f.stripe.pay(renewal.sessionId);
    await f.runJobs();
    expect(await rowLimit(accountId)).toBe(5);

    await setPlanLimit(f.paidPlanId, null);
    const unlimited = await f.checkout(user, { accountId });
    await f.stripe.pay(unlimited.sessionId);
    await f.runJobs();
    expect(await rowLimit(accountId)).toBeNull();
  });

  it('tells the customer in their language, once a day, that a new device was refused over the limit', async () => {
    await setPlanLimit(f.paidPlanId, 2);
    const user = await f.newUser();
    expect((await f.call(user, 'PATCH', '/api/me', { locale: 'ru' })).statusCode).toBe(200);
    const to = await emailOf(f, user);
    const accountId = await f.buyAccount(user);
    const account = (await f.call(user, 'GET', '/api/accounts')).json().find((a: { id: string }) => a.id === accountId);
    const path = new URL(account.combinedUrl).pathname;
    const sub = (hwid: string) => f.t.app.inject({ method: 'GET', url: path, headers: { 'user-agent': 'Happ/3.2.1', 'x-hwid': hwid } });
    const refused = async (hwid: string) => {
      const res = await sub(hwid);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['x-hwid-max-devices-reached']).toBe('true');
    };
    const notices = () => f.env.smtp.messages.filter((m) => m.to.includes(to) && m.subject.includes('новое устройство не смогло подключиться'));
    const queued = () => f.count('jobs', { type: 'send_billing_email' });
    expect((await sub('phone')).headers['x-hwid-max-devices-reached']).toBeUndefined();
    expect((await sub('laptop')).headers['x-hwid-max-devices-reached']).toBeUndefined();
    await f.runJobs();
    expect(notices()).toHaveLength(0); // admitting devices tells nobody

    await refused('tablet');
    await f.runJobs();
    expect(notices()).toHaveLength(1);
    const { text } = mailParts(notices()[0]!);
    expect(text).toContain(`Новое устройство попыталось подключиться к вашему VPN ${account.username}, но на нём уже используется 2 из 2 устройств.`);
    expect(text).toContain('http://localhost:3000/ru/dashboard');

    const jobsBefore = await queued();
    await refused('tablet');
    await refused('tv');
    await f.runJobs();
    expect(notices()).toHaveLength(1); // the same day: not again
    expect(await queued()).toBe(jobsBefore);
    await f.restart(); // another instance, which has queued nothing itself: the notice's dedupe key still holds
    await refused('tablet');
    await f.runJobs();
    expect(notices()).toHaveLength(1);

    f.t.clock.advance(24 * 3600);
    await refused('tablet');
    await refused('tablet');
    await f.runJobs();
    expect(notices()).toHaveLength(2); // the next day: once more
  });
});
