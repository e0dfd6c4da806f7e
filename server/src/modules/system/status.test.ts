import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DATABASES, type TestDatabase } from '../../../test/databases.js';
import { buildTestApp, type TestApp } from '../../../test/test-app.js';

describe.each(TEST_DATABASES)('public service status (%s)', (kind) => {
  let database: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    t = await buildTestApp({ db: database.db });
  });
  afterAll(async () => {
    await t.app.close();
    await database.destroy();
  });

  const addServer = (name: string, locations: string, status: string, publicName: string | null = null) =>
    database.db('masterservers').insert({
      id: `${name}-id`,
      kind: 'marzneshin',
      name,
      public_name: publicName,
      url: `https://${name.toLowerCase()}.panel.internal:8443`,
      username: 'admin',
      password_encrypted: 'v1.x.y.z',
      service_id: '1',
      locations,
      status,
      created_at: new Date(),
      updated_at: new Date(),
    });

  it('reports the site and database up, and no regions before any panel is added', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/status' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ site: 'up', database: 'up', regions: [], checkedAt: expect.any(String) });
  });

  it('shows each panel region by its public name as up or down, never its internal name or address', async () => {
    await addServer('fra-edge-01', 'DE', 'active', 'Germany');
    await addServer('tyo-edge-02', 'JP', 'disabled');
    const res = await t.app.inject({ method: 'GET', url: '/api/status' });
    expect(res.json().regions).toEqual([
      { name: 'Germany', locationNumber: null, nameTranslations: {}, locations: 'DE', status: 'up' },
      { name: 'Location 2', locationNumber: 2, nameTranslations: {}, locations: 'JP', status: 'down' },
    ]);
    expect(res.body).not.toContain('edge');
    expect(res.body).not.toContain('panel.internal');
    expect(res.body).not.toContain('admin');
  });

  it('needs no sign-in', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/status', headers: { cookie: 'vpn_access=garbage' } });
    expect(res.statusCode).toBe(200);
  });
});
