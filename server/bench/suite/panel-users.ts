/**
 * The seed's accounts as panel users: account k is Marzneshin user `u_k` with key `panelKey(k)`, made on
 * first use, so a million accounts need no million panel users made up front.
 */
import { createHash } from 'node:crypto';
import type { MarzneshinUser } from '../../test/fake-panels/marzneshin.js';
import type { FakeUser } from '../../test/fake-panels/types.js';

export const PANEL_ADMIN = { username: 'admin', password: 'admin-pass' };
export const panelKey = (k: number) => createHash('md5').update(`key${k}`).digest('hex').slice(0, 16);

/** The seed's panel users, made when first asked for. */
export class SeededUsers extends Map<string, FakeUser> {
  private nextId = 1;

  override get(username: string): FakeUser | undefined {
    const known = super.get(username);
    const k = /^u_(\d+)$/.exec(username)?.[1];
    if (known || k === undefined) return known;
    const now = new Date();
    const user: MarzneshinUser = {
      id: this.nextId++,
      username,
      expire_strategy: 'fixed_date',
      expire_date: new Date(now.getTime() + 30 * 86_400_000),
      usage_duration: null,
      activation_deadline: null,
      key: panelKey(Number(k)),
      data_limit: 10 * 1024 ** 3,
      data_limit_reset_strategy: 'no_reset',
      note: null,
      sub_updated_at: null,
      sub_last_user_agent: null,
      online_at: null,
      enabled: true,
      used_traffic: 1024 ** 2,
      lifetime_used_traffic: 1024 ** 2,
      sub_revoked_at: null,
      created_at: now,
      service_ids: [1],
      owner_username: PANEL_ADMIN.username,
      traffic_reset_at: null,
    };
    this.set(username, user);
    return user;
  }

  override has(username: string): boolean {
    return this.get(username) !== undefined;
  }
}
