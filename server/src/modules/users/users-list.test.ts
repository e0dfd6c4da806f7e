import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { buildTestApp, signInWeb, TEST_ORIGIN, type TestApp, type WebSession } from '../../../test/test-app.js';
import { dialectOf } from '../../db/knex.js';
import { prefixEnd, toUserProfile, USER_COLUMNS } from './users.repo.js';
import { toAdminUser } from './users.service.js';

const SEEDED = 230;

/**
 * The admin's users list at scale: keyset pages (no user twice, none missed, ties in created_at
 * included), exact and prefix e-mail search, filters, and every query on an index.
 */
describe.each(TEST_DATABASES)('admin users list (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: WebSession;
  let user: WebSession;
  const ids = { active: [] as string[], pastDue: [] as string[], admins: [] as string[] };

  const list = async (query: string, session: WebSession | null = admin) =>
    t.app.inject({ method: 'GET', url: `/api/admin/users${query}`, headers: session ? { cookie: session.cookie } : {} });
  const emails = (res: { json(): Array<{ email: string }> }) => res.json().map((u) => u.email);

  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { ADMIN_EMAILS: 'admin@example.com' } });
    admin = await signInWeb(t, env.smtp, 'admin@example.com');
    user = await signInWeb(t, env.smtp, 'someone@example.com');
    const db = env.database.db;
    // Groups of five share one created_at: pages must cut ties by id.
    const base = Date.UTC(2026, 0, 1);
    const rows = Array.from({ length: SEEDED }, (_, i) => ({
      id: randomUUID(),
      email: `${i % 3 === 0 ? 'alpha' : i % 3 === 1 ? 'beta' : 'al_pha'}.${String(i).padStart(4, '0')}@list.test`,
      role: i % 50 === 0 ? 'admin' : 'user',
      trial_used: false,
      created_at: new Date(base + Math.floor(i / 5) * 1000),
      updated_at: new Date(base),
    }));
    for (let i = 0; i < rows.length; i += 100) await db('user_profiles').insert(rows.slice(i, i + 100));
    ids.admins = rows.filter((r) => r.role === 'admin').map((r) => r.id);
    const now = new Date();
    for (const row of rows.filter((_, i) => i % 7 === 0)) {
      const status = rows.indexOf(row) % 2 === 0 ? 'active' : 'expired';
      await db('vpn_accounts').insert({
        id: randomUUID(),
        user_id: row.id,
        username: `u_${row.id.slice(0, 8)}`,
        status,
        sub_token: randomUUID(),
        metadata: '{}',
        created_at: now,
        updated_at: now,
      });
      if (status === 'active') ids.active.push(row.id);
    }
    for (const row of rows.filter((_, i) => i % 11 === 0)) {
      const status = rows.indexOf(row) % 2 === 0 ? 'past_due' : 'active';
      await db('subscriptions').insert({ id: randomUUID(), user_id: row.id, status, metadata: '{}', created_at: now, updated_at: now });
      if (status === 'past_due') ids.pastDue.push(row.id);
    }
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('walks every user exactly once, newest first, in pages of the size asked', async () => {
    const seen: string[] = [];
    let after = '';
    for (let pages = 0; pages < 20; pages += 1) {
      const res = await list(`?limit=40${after}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as Array<{ id: string; createdAt: string }>;
      expect(page.length).toBeLessThanOrEqual(40);
      seen.push(...page.map((u) => u.id));
      if (page.length < 40) break;
      after = `&after=${page.at(-1)!.id}`;
    }
    const total = Number((await env.database.db('user_profiles').count({ n: '*' }))[0]!.n);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    const first = (await list('?limit=3')).json();
    expect(first.map((u: { email: string }) => u.email)).toContain('someone@example.com'); // signed up last
    expect((await list('')).json()).toHaveLength(50); // the default page
  });

  it('finds one user by a whole address, and addresses by prefix in e-mail order, page by page', async () => {
    expect(emails(await list('?q=ALPHA.0003@LIST.TEST'))).toEqual(['alpha.0003@list.test']);
    expect(emails(await list('?q=nobody@list.test'))).toEqual([]);
    const prefix = emails(await list('?q=al_&limit=200'));
    expect(prefix.length).toBe(Array.from({ length: SEEDED }, (_, i) => i).filter((i) => i % 3 === 2).length);
    expect(prefix.every((email) => email.startsWith('al_pha.'))).toBe(true); // "_" is not a wildcard
    expect(prefix).toEqual([...prefix].sort());
    const firstPage = emails(await list('?q=alpha.&limit=10'));
    const lastId = (await list('?q=alpha.&limit=10')).json().at(-1).id;
    const secondPage = emails(await list(`?q=alpha.&limit=10&after=${lastId}`));
    expect(secondPage[0]! > firstPage.at(-1)!).toBe(true);
    expect(new Set([...firstPage, ...secondPage]).size).toBe(20);
    expect((await list('?q=%25')).json()).toEqual([]);
  });

  it('filters by role, by an active account and by a past-due subscription', async () => {
    const admins = (await list('?role=admin&limit=200')).json().map((u: { id: string }) => u.id);
    expect(admins.sort()).toEqual([...ids.admins].sort());
    // The address in ADMIN_EMAILS signed in as the store's owner.
    expect((await list('?role=owner')).json().map((u: { id: string }) => u.id)).toEqual([admin.userId]);
    const active = (await list('?active=true&limit=200')).json().map((u: { id: string }) => u.id);
    expect(active.sort()).toEqual([...ids.active].sort());
    const pastDue = (await list('?pastDue=true&limit=200')).json().map((u: { id: string }) => u.id);
    expect(pastDue.sort()).toEqual([...ids.pastDue].sort());
    const both = (await list('?pastDue=true&active=true&role=user&limit=200')).json().map((u: { id: string }) => u.id);
    expect(both.sort()).toEqual(ids.pastDue.filter((id) => ids.active.includes(id) && !ids.admins.includes(id)).sort());
  });

  it('pages through each filter, alone and with a search and a role, exactly and in order', async () => {
    const db = env.database.db;
    // What each filter means, read from the accounts and subscriptions themselves (not from the counts the list walks).
    const everyone: Array<{ id: string; email: string; role: string; createdAt: number; active: boolean; pastDue: boolean }> = (
      await db('user_profiles as u')
        .select('u.id', 'u.email', 'u.role', 'u.created_at')
        .select(db.raw("(SELECT count(*) FROM vpn_accounts a WHERE a.user_id = u.id AND a.status = 'active') AS active"))
        .select(db.raw("(SELECT count(*) FROM subscriptions s WHERE s.user_id = u.id AND s.status = 'past_due') AS past_due"))
    ).map((r: Record<string, unknown>) => ({
      id: r.id as string,
      email: r.email as string,
      role: r.role as string,
      createdAt: new Date(r.created_at as string).getTime(),
      active: Number(r.active) > 0,
      pastDue: Number(r.past_due) > 0,
    }));
    const combinations: Array<{ active?: true; pastDue?: true; role?: 'admin' | 'user'; q?: string }> = [
      { active: true },
      { pastDue: true },
      { active: true, pastDue: true },
      { active: true, role: 'user' },
      { pastDue: true, role: 'admin' },
      { active: true, q: 'alpha.' },
      { pastDue: true, q: 'al_', role: 'user' },
      { active: true, pastDue: true, q: 'alpha.' },
      { role: 'admin', q: 'al' },
      { active: true, role: 'admin', q: 'alpha.' },
    ];
    for (const filter of combinations) {
      const expected = everyone
        .filter(
          (u) =>
            (!filter.active || u.active) &&
            (!filter.pastDue || u.pastDue) &&
            (!filter.role || u.role === filter.role) &&
            (!filter.q || u.email.startsWith(filter.q)),
        )
        .sort((x, y) => (filter.q ? (x.email < y.email ? -1 : 1) : y.createdAt - x.createdAt || (x.id < y.id ? 1 : -1)))
        .map((u) => u.id);
      const query = Object.entries(filter)
        .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`)
        .join('&');
      const walked: string[] = [];
      for (let after = ''; ;) {
        const res = await list(`?${query}&limit=4${after}`);
        expect(res.statusCode, res.body).toBe(200);
        const page = (res.json() as Array<{ id: string }>).map((u) => u.id);
        walked.push(...page);
        if (page.length < 4) break;
        after = `&after=${page.at(-1)}`;
      }
      expect(walked, query).toEqual(expected);
    }
    expect(everyone.filter((u) => u.active && u.pastDue).length).toBeGreaterThan(0); // the combined filter had someone to find
  });

  it('lists a user under "active" and "past due" from the moment that is so, and no longer once it is not', async () => {
    const db = env.database.db;
    const id = randomUUID();
    const at = new Date();
    await db('user_profiles').insert({ id, email: 'zeta.flags@list.test', role: 'user', trial_used: false, created_at: at, updated_at: at });
    const listed = async (filter: string) => (await list(`?q=zeta.&${filter}`)).json().map((u: { id: string }) => u.id);
    expect([await listed('active=true'), await listed('pastDue=true')]).toEqual([[], []]);
    const account = randomUUID();
    await db('vpn_accounts').insert({
      id: account,
      user_id: id,
      username: `u_${id.slice(0, 8)}z`,
      status: 'active',
      sub_token: randomUUID(),
      metadata: '{}',
      created_at: at,
      updated_at: at,
    });
    const subscription = randomUUID();
    await db('subscriptions').insert({ id: subscription, user_id: id, status: 'past_due', metadata: '{}', created_at: at, updated_at: at });
    expect([await listed('active=true'), await listed('pastDue=true')]).toEqual([[id], [id]]);
    await db('vpn_accounts').where({ id: account }).update({ status: 'expired' });
    await db('subscriptions').where({ id: subscription }).update({ status: 'active' });
    expect([await listed('active=true'), await listed('pastDue=true')]).toEqual([[], []]);
    await db('user_profiles').where({ id }).del();
  });

  it('answers a page asked again as it was, and with every change committed since', async () => {
    const target = (await list('?q=beta.&limit=1')).json()[0] as { id: string; role: string };
    expect((await list('?q=beta.&limit=1')).json()).toEqual([target]);
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/users/${target.id}`,
      headers: { cookie: admin.cookie, origin: TEST_ORIGIN },
      payload: { role: 'admin' },
    });
    expect(patched.statusCode).toBe(200);
    expect((await list('?q=beta.&limit=1')).json()).toEqual([{ ...target, role: 'admin' }]);
    await env.database.db('user_profiles').where({ id: target.id }).update({ role: target.role }); // another writer than the app's routes
    expect((await list('?q=beta.&limit=1')).json()).toEqual([target]);
  });

  it('answers each user as their profile reads: role, trial flag, time to the millisecond, any address', async () => {
    const db = env.database.db;
    const pg = dialectOf(db) === 'postgres';
    const emails = [
      'omega."q\\uote"@list.test',
      'omega.\u00e9t\u00e9@list.test',
      'omega.\u{1F600}@list.test',
      'omega.\ttab@list.test',
      'omega.\u{10FFFF}@list.test',
      'omega.\uffff@list.test',
    ];
    const rows = emails.map((email, i) => ({
      id: randomUUID(),
      email,
      role: ['admin', 'user', 'support'][i % 3],
      trial_used: i % 2 === 0,
      created_at: new Date(Date.UTC(2026, 2, 4, 5, 6, 7, [891, 5, 0, 999, 40, 7][i])),
      updated_at: new Date(),
    }));
    await db('user_profiles').insert(rows);
    // PostgreSQL keeps microseconds: a Date (and the list) shows the millisecond they fall in.
    if (pg)
      await db('user_profiles')
        .where({ id: rows[0]!.id })
        .update({ created_at: db.raw("'2026-03-04 05:06:07.891999+00'") });
    try {
      const res = await list('?q=omega.&limit=200');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const stored = (
        await db('user_profiles')
          .whereIn(
            'id',
            rows.map((r) => r.id),
          )
          .select(USER_COLUMNS)
      ).map((row) => toAdminUser(toUserProfile(row)));
      const byteOrder = (a: { email: string | null }, b: { email: string | null }) => Buffer.compare(Buffer.from(a.email ?? ''), Buffer.from(b.email ?? ''));
      expect(res.json()).toEqual(stored.sort(byteOrder));
      expect(stored.map((u) => u.role)).toContain('user'); // "support" reads as a user, as toUserProfile reads it
      expect(stored.find((u) => u.id === rows[0]!.id)!.createdAt).toBe('2026-03-04T05:06:07.891Z');
      expect(stored.find((u) => u.id === rows[1]!.id)!.createdAt).toBe('2026-03-04T05:06:07.005Z'); // milliseconds padded
      expect(stored.find((u) => u.id === rows[2]!.id)!.createdAt).toBe('2026-03-04T05:06:07.000Z');
    } finally {
      await db('user_profiles')
        .whereIn(
          'id',
          rows.map((r) => r.id),
        )
        .del();
    }
  });

  it('finds addresses by a prefix ending in any character, and only those', async () => {
    const db = env.database.db;
    const addresses = [
      'psi.\u00e9@list.test',
      'psi.\u00ea@list.test',
      'psi.\ud7ff@list.test',
      'psi.\ue000@list.test',
      'psi.\uffff@list.test',
      'psi.\u{10000}@list.test',
      'psi.\u{10FFFF}x@list.test',
      'psj@list.test',
    ];
    const at = new Date();
    await db('user_profiles').insert(addresses.map((email) => ({ id: randomUUID(), email, role: 'user', trial_used: false, created_at: at, updated_at: at })));
    try {
      const found = async (q: string) => emails(await list(`?q=${encodeURIComponent(q)}&limit=200`));
      expect(await found('psi.')).toHaveLength(7);
      for (const email of addresses.slice(0, 7)) expect(await found(email.slice(0, email.indexOf('@')))).toEqual([email]);
      expect(await found('psi.\u{10FFFF}')).toEqual(['psi.\u{10FFFF}x@list.test']);
      expect(await found('psi.\u{10FFFF}y')).toEqual([]);
    } finally {
      await db('user_profiles').whereIn('email', addresses).del();
    }
  });

  it('answers 400 to a bad page size, filter or a cursor naming no user; 401 and 403 to others', async () => {
    for (const query of ['?limit=0', '?limit=201', '?limit=x', '?role=superuser', '?active=yes', `?after=${randomUUID()}`]) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json()).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    }
    expect((await list('', null)).statusCode).toBe(401);
    expect((await list('', user)).statusCode).toBe(403);
  });

  it('serves the first page, the prefix search and the filters from indexes, not a scan and sort of the table', async () => {
    const db = env.database.db;
    const repoQuery = (sql: string) =>
      dialectOf(db) === 'postgres' ? db.raw(`SET enable_seqscan = off; EXPLAIN ${sql}`) : db.raw(`EXPLAIN QUERY PLAN ${sql}`);
    const plan = async (sql: string): Promise<string> => {
      const result = await repoQuery(sql);
      const rows = dialectOf(db) === 'postgres' ? (Array.isArray(result) ? result.at(-1).rows : result.rows) : result;
      return JSON.stringify(rows);
    };
    const collate = dialectOf(db) === 'postgres' ? ' COLLATE "C"' : '';
    const firstPage = await plan('select id from user_profiles order by created_at desc, id desc limit 50');
    expect(firstPage).toMatch(/user_profiles_created_at_id_index/);
    expect(firstPage).not.toMatch(/TEMP B-TREE|Sort/);
    const prefix = await plan(
      `select id from user_profiles where email${collate} >= 'alpha' and email${collate} < 'alpha\uffff' order by email${collate} limit 50`,
    );
    expect(prefix).toMatch(dialectOf(db) === 'postgres' ? /user_profiles_email_c_index/ : /user_profiles_email_(unique|list_index)/);
    if (dialectOf(db) === 'sqlite') {
      // The index the list names for a plain prefix search holds the whole page: no read of the table.
      const listed = await plan(
        `select id, email, role, trial_used, created_at from user_profiles AS u INDEXED BY user_profiles_email_list_index where email >= 'alpha' and email < 'alphb' order by email limit 50`,
      );
      expect(listed).toMatch(/COVERING INDEX user_profiles_email_list_index/);
      expect(listed).not.toMatch(/TEMP B-TREE/);
    }
    const pastDue = await plan(
      "select id from user_profiles where past_due_subscriptions > 0 and active_accounts > 0 and role = 'user' order by created_at desc, id desc limit 50",
    );
    expect(pastDue).toMatch(/user_profiles_past_due_role_created_at_id_index/);
    expect(pastDue).not.toMatch(/TEMP B-TREE|Sort/);
    const activePrefix = await plan(
      `select id from user_profiles where active_accounts > 0 and email${collate} LIKE 'alpha%' ${collate ? '' : "and email >= 'alpha' and email < 'alpha\uffff' "}order by email${collate} limit 50`,
    );
    expect(activePrefix).toMatch(/user_profiles_active_email_index/);
    expect(activePrefix).not.toMatch(/TEMP B-TREE|Sort/);
    if (dialectOf(db) === 'postgres') await db.raw('SET enable_seqscan = on');
  });
});

describe('prefixEnd', () => {
  it('is the least string above every string with that prefix, in code point order', () => {
    expect(prefixEnd('ab')).toBe('ac');
    expect(prefixEnd('a\u{D7FF}')).toBe('a\u{E000}');
    expect(prefixEnd('a\uFFFF')).toBe('a\u{10000}');
    expect(prefixEnd('a\u{1F600}')).toBe('a\u{1F601}');
    expect(prefixEnd('a\u{10FFFF}')).toBe('b');
    expect(prefixEnd('\u{10FFFF}\u{10FFFF}')).toBeUndefined();
  });
});
