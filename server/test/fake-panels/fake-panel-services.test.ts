import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeMarzban } from './marzban.js';
import { startFakeMarzneshin } from './marzneshin.js';
import { startFakePasarguard, type FakePasarguard } from './pasarguard.js';
import { startFakeRemnawave, type FakeRemnawave } from './remnawave.js';
import { call, fromBase64, login } from './test-client.js';
import type { FakePanel } from './types.js';

/**
 * How each fake moves an existing user into other services (a plan's locations), as the panel's own modify route
 * does: Marzban's inbounds, Marzneshin's services, PasarGuard's groups, Remnawave's internal squads.
 */

const protocolsOf = (links: string[]) => links.map((link) => link.split(':')[0]);

describe("fake Marzban: a user's inbounds through PUT /api/user/{username}", () => {
  let panel: FakePanel;
  let token: string;
  const api = (method: string, path: string, json?: unknown) => call(panel, method, path, { token, json });
  const ALL = {
    proxies: { vless: {}, vmess: {}, trojan: {}, shadowsocks: {} },
    inbounds: { vless: ['VLESS TCP TLS'], vmess: ['VMess Websocket'], trojan: ['Trojan TCP TLS'], shadowsocks: ['Shadowsocks TCP'] },
  };

  beforeEach(async () => {
    panel = await startFakeMarzban();
    token = await login(panel, '/api/admin/token');
  });
  afterEach(async () => {
    await panel.close();
  });

  it('changes the inbounds of the protocols named only, and keeps the proxies when none are sent', async () => {
    const created = (await api('POST', '/api/user', { username: 'mover', ...ALL })).body;
    const reply = await api('PUT', '/api/user/mover', { inbounds: { vless: [], trojan: ['Trojan TCP TLS'] } });
    expect(reply.status).toBe(200);
    expect(reply.body.inbounds).toEqual({ vless: [], vmess: ['VMess Websocket'], trojan: ['Trojan TCP TLS'], shadowsocks: ['Shadowsocks TCP'] });
    expect(reply.body.excluded_inbounds.vless).toEqual(['VLESS TCP TLS']);
    expect(reply.body.proxies).toEqual(created.proxies);
    expect(protocolsOf(reply.body.links)).toEqual(['vmess', 'trojan', 'ss']);
  });

  it('replaces the proxies: one sent as {} gets new credentials, one sent back keeps them, one left out is deleted', async () => {
    const created = (await api('POST', '/api/user', { username: 'switcher', ...ALL })).body;
    const reply = await api('PUT', '/api/user/switcher', { proxies: { vless: {}, vmess: created.proxies.vmess } });
    expect(reply.body.proxies.vless.id).not.toBe(created.proxies.vless.id);
    expect(reply.body.proxies.vmess).toEqual(created.proxies.vmess);
    expect(Object.keys(reply.body.proxies)).toEqual(['vless', 'vmess']);
    expect(protocolsOf(reply.body.links)).toEqual(['vless', 'vmess']);
  });

  it('a proxy added again is a new one: in every inbound of its protocol, its old exclusions gone', async () => {
    const created = (await api('POST', '/api/user', { username: 'comeback', ...ALL })).body;
    await api('PUT', '/api/user/comeback', { inbounds: { trojan: [] } });
    await api('PUT', '/api/user/comeback', { proxies: { vless: created.proxies.vless } });
    const back = await api('PUT', '/api/user/comeback', { proxies: { vless: created.proxies.vless, trojan: {} } });
    expect(back.body.inbounds).toEqual({ vless: ['VLESS TCP TLS'], trojan: ['Trojan TCP TLS'] });
    // `inbounds` for a protocol the user has no proxy for changes nothing.
    const ignored = await api('PUT', '/api/user/comeback', { inbounds: { vmess: [] } });
    expect(ignored.body.inbounds).toEqual({ vless: ['VLESS TCP TLS'], trojan: ['Trojan TCP TLS'] });
  });

  it('refuses an unknown inbound tag with 422 and changes nothing; the old subscription link serves the new inbounds', async () => {
    const created = (await api('POST', '/api/user', { username: 'stays', ...ALL })).body;
    const unknown = await api('PUT', '/api/user/stays', { inbounds: { vless: ['Nope'] } });
    expect([unknown.status, unknown.body]).toEqual([422, { detail: { inbounds: "Value error, Inbound Nope doesn't exist" } }]);
    expect((await api('GET', '/api/user/stays')).body.links).toHaveLength(4);
    await api('PUT', '/api/user/stays', { proxies: { trojan: created.proxies.trojan }, inbounds: { trojan: ['Trojan TCP TLS'] } });
    const served = await call(panel, 'GET', `${created.subscription_url}/`);
    expect(served.status).toBe(200);
    expect(protocolsOf(fromBase64(served.text).split('\n'))).toEqual(['trojan']);
    expect((await api('PUT', '/api/user/nobody', { inbounds: { vless: [] } })).status).toBe(404);
  });
});

describe("fake Marzneshin: a user's services through PUT /api/users/{username}", () => {
  const panels: FakePanel[] = [];
  afterEach(async () => {
    await Promise.all(panels.splice(0).map((panel) => panel.close()));
  });
  const start = async (options: Parameters<typeof startFakeMarzneshin>[0] = {}) => {
    const panel = await startFakeMarzneshin(options);
    panels.push(panel);
    const token = await login(panel, '/api/admins/token');
    return (method: string, path: string, json?: unknown) => call(panel, method, path, { token, json });
  };

  it('replaces the services, keeps the key, and drops unknown ids without a word', async () => {
    const api = await start();
    const created = (await api('POST', '/api/users', { username: 'mover', expire_strategy: 'never', service_ids: [1] })).body;
    const moved = await api('PUT', '/api/users/mover', { username: 'mover', usage_duration: null, service_ids: [2, 99] });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ service_ids: [2], key: created.key, subscription_url: created.subscription_url, expire_strategy: 'never' });
    const both = await api('PUT', '/api/users/mover', { username: 'mover', usage_duration: null, service_ids: [1, 2] });
    expect(both.body.service_ids).toEqual([1, 2]);
    expect((await api('PUT', '/api/users/nobody', { username: 'nobody', usage_duration: null, service_ids: [1] })).body).toEqual({ detail: 'User not found' });
  });

  it("cuts a non-sudo admin's service_ids to its own services, and lists only those", async () => {
    const api = await start({ sudo: false, adminServiceIds: [2] });
    await api('POST', '/api/users', { username: 'reseller_user', expire_strategy: 'never', service_ids: [2] });
    const cut = await api('PUT', '/api/users/reseller_user', { username: 'reseller_user', usage_duration: null, service_ids: [1] });
    expect([cut.status, cut.body.service_ids]).toEqual([200, []]);
    expect((await api('GET', '/api/services?page=1&size=100')).body.items.map((service: { id: number }) => service.id)).toEqual([2]);
  });
});

describe("fake PasarGuard: a user's groups through PUT /api/user/{username}", () => {
  let panel: FakePasarguard;
  let token: string;
  const asPanel = () => panel as unknown as FakePanel;
  const api = (method: string, path: string, json?: unknown) => call(asPanel(), method, path, { token, json });

  beforeEach(async () => {
    panel = await startFakePasarguard();
    token = await login(asPanel(), '/api/admin/token');
  });
  afterEach(async () => {
    await panel.close();
  });

  it('replaces the groups and keeps the proxy settings; the old subscription link serves the new groups', async () => {
    const created = (await api('POST', '/api/user', { username: 'mover', group_ids: [1] })).body;
    const before = (await call(asPanel(), 'GET', `${created.subscription_url}/links`)).text.split('\n');
    const moved = await api('PUT', '/api/user/mover', { group_ids: [2] });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ group_ids: [2], proxy_settings: created.proxy_settings });
    const after = (await call(asPanel(), 'GET', `${created.subscription_url}/links`)).text.split('\n');
    expect(protocolsOf(before)).toEqual(['vless', 'vmess']);
    expect(protocolsOf(after)).toEqual(['trojan', 'ss']);
    expect((await api('PUT', '/api/user/mover', { group_ids: [1, 2] })).body.group_ids).toEqual([1, 2]);
  });

  it('refuses an unknown group with 404 "Group not found" and changes nothing; a missing user is 404 "User not found"', async () => {
    await api('POST', '/api/user', { username: 'stays', group_ids: [1] });
    const unknown = await api('PUT', '/api/user/stays', { group_ids: [2, 42] });
    expect([unknown.status, unknown.body]).toEqual([404, { detail: 'Group not found' }]);
    expect(panel.users.get('stays')!.group_ids).toEqual([1]);
    expect((await api('PUT', '/api/user/nobody', { group_ids: [1] })).body).toEqual({ detail: 'User not found' });
  });
});

describe("fake Remnawave: a user's internal squads through PATCH /api/users", () => {
  let panel: FakeRemnawave;
  const send = async (path: string, method = 'GET', json?: unknown) => {
    const res = await fetch(`${panel.url}${path}`, {
      method,
      headers: {
        'x-forwarded-for': '203.0.113.7',
        'x-forwarded-proto': 'https',
        'user-agent': 'test',
        authorization: `Bearer ${panel.apiToken}`,
        ...(json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: json === undefined ? undefined : JSON.stringify(json),
    });
    const text = await res.text();
    return { status: res.status, text, body: text.startsWith('{') ? JSON.parse(text) : undefined };
  };
  const squadNames = (body: { response: { activeInternalSquads: Array<{ name: string }> } }) => body.response.activeInternalSquads.map((s) => s.name);

  beforeEach(async () => {
    panel = await startFakeRemnawave();
  });
  afterEach(async () => {
    await panel.close();
  });

  it('replaces the squads; the short UUID and subscription URL stay, and it serves the new hosts', async () => {
    const [de, nl] = panel.squads;
    const expireAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const created = (await send('/api/users', 'POST', { username: 'mover', expireAt, activeInternalSquads: [de!.uuid] })).body.response;
    const moved = await send('/api/users', 'PATCH', { username: 'mover', activeInternalSquads: [nl!.uuid] });
    expect(moved.status).toBe(200);
    expect(squadNames(moved.body)).toEqual(['Netherlands']);
    expect(moved.body.response).toMatchObject({ shortUuid: created.shortUuid, subscriptionUrl: created.subscriptionUrl });
    const served = fromBase64((await send(new URL(created.subscriptionUrl).pathname)).text);
    expect(served).toContain('nl1.example.test');
    expect(served).not.toContain('de1.example.test');
    expect(squadNames((await send('/api/users', 'PATCH', { username: 'mover', activeInternalSquads: [de!.uuid, nl!.uuid] })).body)).toEqual([
      'Default-Squad',
      'Netherlands',
    ]);
  });

  it('answers an unknown squad 500 A039 and changes nothing, a malformed one 400, a missing user 404 A025', async () => {
    const expireAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    await send('/api/users', 'POST', { username: 'stays', expireAt, activeInternalSquads: [panel.squads[0]!.uuid] });
    const unknown = await send('/api/users', 'PATCH', { username: 'stays', activeInternalSquads: ['00000000-0000-4000-8000-000000000000'] });
    expect([unknown.status, unknown.body.errorCode, unknown.body.message]).toEqual([500, 'A039', 'Update user error']);
    expect(panel.users.get('stays')!.activeInternalSquads).toEqual([panel.squads[0]!.uuid]);
    const malformed = await send('/api/users', 'PATCH', { username: 'stays', activeInternalSquads: ['Germany'] });
    expect([malformed.status, malformed.body.message]).toEqual([400, 'Validation failed']);
    expect((await send('/api/users', 'PATCH', { username: 'nobody', activeInternalSquads: [] })).body.errorCode).toBe('A025');
  });
});
