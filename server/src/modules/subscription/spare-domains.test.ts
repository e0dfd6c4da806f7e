/**
 * Spare subscription domains (`subscriptionDomains` in the settings): `/sub` answers on each, links are issued on
 * the first not blocked, and marking one blocked moves every customer: Happ is told the new domain, the dashboard
 * shows the new link, each customer is e-mailed it, and the old link still answers.
 */
import { describe, expect, it } from 'vitest';
import { useBillingFixture } from '../../../test/billing-fixture.js';
import { TEST_DATABASES } from '../../../test/databases.js';
import { mailParts } from '../../../test/smtp-catcher.js';
import { bearer, TEST_ORIGIN } from '../../../test/test-app.js';

const HAPP = { 'user-agent': 'Happ/3.2.1', 'x-hwid': 'happ-spare-domains-1' };

describe.each(TEST_DATABASES)('spare subscription domains (%s)', (kind) => {
  const f = useBillingFixture(kind);
  const setDomains = async (subscriptionDomains: unknown) => f.call(f.admin, 'PUT', '/api/admin/settings', { subscriptionDomains });
  const linkOf = async (user: Awaited<ReturnType<typeof f.newUser>>, accountId: string): Promise<string> =>
    (await f.call(user, 'GET', '/api/accounts')).json().find((row: { id: string }) => row.id === accountId).subscriptionUrl;

  it('issues links on the first domain not blocked; blocking it moves apps, the dashboard and the e-mail, and the old link still answers', async () => {
    const user = await f.newUser();
    const accountId = await f.buyAccount(user);
    expect(await linkOf(user, accountId)).toMatch(new RegExp(`^${TEST_ORIGIN}/sub/`));

    expect((await setDomains([{ domain: 'Sub1.Example.com' }])).json().subscriptionDomains).toEqual([{ domain: 'sub1.example.com', blocked: false }]);
    const first = await linkOf(user, accountId);
    expect(first).toMatch(/^http:\/\/sub1\.example\.com\/sub\/[\w-]+$/);
    const path = new URL(first).pathname;

    const sentBefore = f.env.smtp.messages.length;
    const saved = await setDomains([{ domain: 'sub1.example.com', blocked: true }, { domain: 'sub2.example.com' }]);
    expect(saved.statusCode, saved.body).toBe(200);
    const second = await linkOf(user, accountId);
    expect(second).toBe(`http://sub2.example.com${path}`);

    // Happ on the blocked domain: told where to go; the old link still answers with the configuration.
    const onOld = await f.t.app.inject({ method: 'GET', url: path, headers: { ...HAPP, host: 'sub1.example.com' } });
    expect(onOld.statusCode, onOld.body).toBe(200);
    expect(onOld.headers['new-domain']).toBe('sub2.example.com');
    expect(onOld.headers['new-url']).toBe(`http://sub2.example.com${path}`);
    expect(Buffer.from(onOld.body, 'base64').toString('utf8')).toMatch(/:\/\//);
    // The same on PUBLIC_URL's host (links issued before there were spare domains), and on a forced format.
    const onPublic = await f.t.app.inject({ method: 'GET', url: `${path}/sing-box`, headers: { ...HAPP, host: new URL(TEST_ORIGIN).host } });
    expect(onPublic.headers['new-url']).toBe(`http://sub2.example.com${path}/sing-box`);
    // On the new domain, and on a host that is not ours: nothing to move to.
    for (const host of ['sub2.example.com', 'elsewhere.example.net']) {
      const answer = await f.t.app.inject({ method: 'GET', url: path, headers: { ...HAPP, host } });
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['new-domain'], host).toBeUndefined();
    }

    // The customer is e-mailed the new link, once.
    await f.runJobs();
    const email = (await f.env.database.db('user_profiles').where({ id: user.userId }).first()).email as string;
    const mail = await f.env.smtp.waitFor(email, { after: sentBefore });
    expect(mail.subject).toContain('a new link for');
    expect(mailParts(mail).text).toContain(`http://sub2.example.com${path}`);
    await setDomains([{ domain: 'sub1.example.com', blocked: true }, { domain: 'sub2.example.com' }]);
    await f.runJobs();
    expect(f.env.smtp.messages.filter((message) => message.to.includes(email) && message.subject.includes('a new link for'))).toHaveLength(1);

    // The browser page on the old domain shows the link on the new one; /open/ takes links on every domain of ours.
    const page = await f.t.app.inject({ method: 'GET', url: path, headers: { accept: 'text/html', host: 'sub1.example.com' } });
    expect(page.body).toContain(`value="http://sub2.example.com${path}"`);
    for (const link of [first, second]) {
      expect((await f.t.app.inject({ method: 'GET', url: `/open/happ?url=${encodeURIComponent(link)}` })).statusCode, link).toBe(200);
    }
    await setDomains([]);
    expect(await linkOf(user, accountId)).toMatch(new RegExp(`^${TEST_ORIGIN}/sub/`));
  });

  it('refuses a URL, a path, a name twice or a bad name with a clear 400, and keeps what was saved', async () => {
    await setDomains([{ domain: 'keep.example.com' }]);
    for (const domains of [
      [{ domain: 'https://sub.example.com' }],
      [{ domain: 'sub.example.com/sub' }],
      [{ domain: 'a.example.com' }, { domain: 'A.example.com' }],
      [{ domain: 'bad_name!.example.com' }],
      [{ domain: 'ok.example.com', extra: true }],
      'sub.example.com',
    ]) {
      const res = await setDomains(domains);
      expect(res.statusCode, JSON.stringify(domains)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed', message: expect.any(String) });
    }
    expect((await f.call(f.admin, 'GET', '/api/admin/settings')).json().subscriptionDomains).toEqual([{ domain: 'keep.example.com', blocked: false }]);
    await setDomains([]);
  });

  it('are the admin’s to set: 401 without a session, 403 for a customer', async () => {
    const body = { subscriptionDomains: [{ domain: 'x.example.com' }] };
    expect((await f.t.app.inject({ method: 'PUT', url: '/api/admin/settings', payload: body })).statusCode).toBe(401);
    const user = await f.newUser();
    expect((await f.t.app.inject({ method: 'PUT', url: '/api/admin/settings', headers: bearer(user.accessToken), payload: body })).statusCode).toBe(403);
  });
});
