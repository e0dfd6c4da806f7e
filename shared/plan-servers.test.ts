import { describe, expect, it } from 'vitest';
import { locationName, planAllowsServer, planLocationCodes, planServiceOn, PlanServersSchema } from './plan-servers.js';

const germany = { id: 'de', locations: 'DE', premium: false, serviceId: 'base' };
const netherlands = { id: 'nl', locations: 'NL', premium: true, serviceId: 'base' };
const everywhere = { id: 'all', locations: 'all', premium: false, serviceId: 'base' };

describe('locations per plan', () => {
  it('a plan listing no server may use any that covers its locations, but never a premium one', () => {
    const plan = { locations: 'all', servers: [] };
    expect(planAllowsServer(plan, germany)).toBe(true);
    expect(planAllowsServer(plan, netherlands)).toBe(false);
    expect(planAllowsServer({ locations: 'NL', servers: [] }, germany)).toBe(false);
  });

  it('a plan listing servers may use those only, premium or not', () => {
    const plan = { locations: 'all', servers: [{ serverId: 'nl', serviceId: null }] };
    expect(planAllowsServer(plan, netherlands)).toBe(true);
    expect(planAllowsServer(plan, germany)).toBe(false);
  });

  it('the squads on a server are the plan’s for it, else the server’s own', () => {
    const plan = { servers: [{ serverId: 'de', serviceId: 'premium,base' }] };
    expect(planServiceOn(plan, germany)).toBe('premium,base');
    expect(planServiceOn(plan, netherlands)).toBe('base');
    expect(planServiceOn({ servers: [{ serverId: 'de', serviceId: null }] }, germany)).toBe('base');
  });

  it('the codes a visitor is told: the listed servers’, else the plan’s own; none when it is everywhere', () => {
    const servers = [germany, netherlands, everywhere];
    const listing = (...ids: string[]) => ({ locations: 'all', servers: ids.map((serverId) => ({ serverId, serviceId: null })) });
    expect(planLocationCodes(listing('nl', 'de'), servers)).toEqual(['DE', 'NL']);
    expect(planLocationCodes(listing('de', 'all'), servers)).toEqual([]);
    expect(planLocationCodes({ locations: 'FI,SE', servers: [] }, servers)).toEqual(['FI', 'SE']);
    expect(planLocationCodes({ locations: 'all', servers: [] }, servers)).toEqual([]);
  });

  it('names countries in the reader’s language and leaves other codes as written', () => {
    expect(locationName('DE', 'en')).toBe('Germany');
    expect(locationName('DE', 'ru')).toBe('Германия');
    expect(locationName('DE', 'fa')).toBe('آلمان');
    expect(locationName('DE', 'zh-CN')).toBe('德国');
    expect(locationName('US-EAST', 'ru')).toBe('US-EAST');
  });

  it('refuses a server listed twice and trims the squads, empty meaning the server’s own', () => {
    expect(PlanServersSchema.safeParse([{ serverId: 'a' }, { serverId: 'a' }]).success).toBe(false);
    expect(PlanServersSchema.parse([{ serverId: 'a', serviceId: '  ' }])).toEqual([{ serverId: 'a', serviceId: null }]);
    expect(PlanServersSchema.safeParse([{ serverId: 'a', extra: 1 }]).success).toBe(false);
  });
});
