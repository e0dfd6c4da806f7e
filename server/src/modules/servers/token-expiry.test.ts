/**
 * Remnawave API tokens end (3.x tokens have an end date the token itself cannot read): the server form takes it,
 * System shows the days left, and the admins are e-mailed 14 and 3 days before, once each. SQLite: panel and
 * mail behaviour, not database behaviour.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBillingFixture } from '../../../test/billing-fixture.js';
import { startFakeRemnawave, type FakeRemnawave } from '../../../test/fake-panels/remnawave.js';
import { tokenWarning } from './token-expiry.js';

const SQUAD = '6f1c2d4e-3b5a-4c7d-8e9f-0a1b2c3d4e5f';
const DAY = 24 * 3600_000;

describe('when a token warns', () => {
  const now = new Date('2027-01-01T00:00:00Z');
  it.each([
    [20, null],
    [15, null],
    [14, 14],
    [4, 14],
    [3, 3],
    [1, 3],
    [0, 3],
    [-5, 3],
  ])('%i days before its end: %s', (days, expected) => {
    expect(tokenWarning(new Date(now.getTime() + days * DAY), now)).toBe(expected);
  });
});

describe('a Remnawave server whose API token ends', () => {
  const f = useBillingFixture('sqlite', { configureCard: false });
  let fake: FakeRemnawave;
  beforeAll(async () => {
    fake = await startFakeRemnawave();
  });
  afterAll(async () => {
    await fake.close();
  });
  const body = () => ({ kind: 'remnawave', name: `Remna ${Date.now()}`, url: fake.url, apiToken: fake.apiToken, serviceId: SQUAD, locations: 'all' });
  const warnings = (to: string) => f.env.smtp.messages.filter((mail) => mail.to.includes(to) && mail.subject.includes('API token'));

  it('takes the end date, shows the days left on System, and e-mails the admins 14 and 3 days before, once each', async () => {
    const ends = new Date(Math.floor((f.t.clock.now().getTime() + 10 * DAY) / 1000) * 1000);
    const created = await f.call(f.admin, 'POST', '/api/admin/servers', { ...body(), apiTokenExpiresAt: ends.toISOString() });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().apiTokenExpiresAt).toBe(ends.toISOString());
    const id = created.json().id as string;

    const system = (await f.call(f.admin, 'GET', '/api/admin/system')).json();
    expect(system.panels.find((panel: { id: string }) => panel.id === id)).toMatchObject({ tokenExpiresAt: ends.toISOString(), tokenDaysLeft: 10 });

    const admin = (await f.env.database.db('user_profiles').where({ id: f.admin.userId }).first()).email as string;
    await f.t.app.services.serverHealth.checkAll();
    await f.runJobs();
    expect(warnings(admin)).toHaveLength(1);
    expect(warnings(admin)[0]!.subject).toContain('ends on');
    await f.t.app.services.serverHealth.checkAll();
    await f.runJobs();
    expect(warnings(admin)).toHaveLength(1);

    f.t.clock.advance((8 * DAY) / 1000);
    await f.t.app.services.serverHealth.checkAll();
    await f.runJobs();
    await f.t.app.services.serverHealth.checkAll();
    await f.runJobs();
    expect(warnings(admin)).toHaveLength(2);

    // A new token without its end date: the old end is not the new token's, and nothing more is sent about it.
    const next = fake.issueApiToken(['*']);
    const changed = await f.t.app.services.servers.updateServer({ id: f.admin.userId, email: admin }, id, { apiToken: next });
    expect(changed.apiTokenExpiresAt).toBeNull();
    await f.t.app.services.serverHealth.checkAll();
    await f.runJobs();
    expect(warnings(admin)).toHaveLength(2);
  });

  it('refuses an end that is not a date, naming the field, and keeps none for a panel without a token', async () => {
    const bad = await f.call(f.admin, 'POST', '/api/admin/servers', { ...body(), apiTokenExpiresAt: 'next year' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed', fields: { apiTokenExpiresAt: 'The token’s end is a date, e.g. 2027-03-01' } });
    const dated = await f.call(f.admin, 'POST', '/api/admin/servers', { ...body(), apiTokenExpiresAt: '2030-03-01' });
    expect(dated.json().apiTokenExpiresAt).toBe('2030-03-01T00:00:00.000Z');
  });
});
