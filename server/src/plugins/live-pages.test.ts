import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '../../../shared/plans.js';
import { formatMoney } from '../../../shared/money.js';
import { isListedPublicly, perMonthCents } from '../../../shared/pricing.js';
import { PLANS_SLOT, ROOT_SLOT } from '../../../shared/site-template.js';
import { TEST_DATABASES } from '../../test/databases.js';
import { useTestEnvironment } from '../../test/environment.js';
import { buildTestApp, signInWeb, TEST_ORIGIN, type TestApp, type WebSession } from '../../test/test-app.js';
import { SERVER_BUNDLE_FILE, SITE_DIST_DIR } from '../lib/package-info.js';
import { seedDefaultPlans } from '../modules/plans/plans.seed.js';
import { LIVE_PAGE_TTL_MS } from './live-pages.js';

const GB = 1024 ** 3;

/** The visible text of a page: scripts and tags dropped, entities decoded, spaces collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** What the page embeds for the browser to hydrate with. */
function embeddedPlans(html: string): Plan[] | null {
  const json = /<script type="application\/json" id="app-plans">([\s\S]*?)<\/script>/.exec(html)?.[1];
  return json ? (JSON.parse(json) as Plan[]) : null;
}

// What `curl` of /pricing returns: the built site, rendered by the server with the plans on sale.
describe.each(TEST_DATABASES)('the pricing page, rendered with the plans (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: WebSession;

  beforeAll(async () => {
    if (!existsSync(join(SITE_DIST_DIR, 'manifest.json')) || !existsSync(SERVER_BUNDLE_FILE)) {
      throw new Error('The site is not built: run `npm run build:web` first.');
    }
    await seedDefaultPlans(env.database.db, new Date());
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp, env: { ADMIN_EMAILS: 'admin@example.com' } });
    admin = await signInWeb(t, env.smtp, 'admin@example.com');
  });
  afterAll(async () => {
    await t.app.close();
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const adminCall = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: object) =>
    t.app.inject({ method, url, payload, headers: { origin: TEST_ORIGIN, cookie: admin.cookie } });
  const publicPlans = async (): Promise<Plan[]> => (await get('/api/plans')).json();

  it('has every listed plan in the HTML: tier, name, price per month, price charged, badges', async () => {
    const res = await get('/pricing');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    const text = textOf(res.body);
    const listed = (await publicPlans()).filter(isListedPublicly);
    expect(listed).toHaveLength(9);
    for (const plan of listed) {
      expect(text).toContain(plan.name);
      expect(text).toContain(`${formatMoney(plan.price, 'usd')} billed every`);
      expect(text).toContain(formatMoney(perMonthCents(plan)!, 'usd'));
    }
    for (const tier of ['Complete', 'Plus', 'Basic']) expect(text).toContain(`Get ${tier}`);
    expect(text).toContain('Most Popular');
    expect(text).toContain('Save 64%');
    expect(text).toMatch(/\$4\.99 \/mo per month/);
    expect(text).toContain('$119.76 billed every 2 years, renews automatically; cancel any time');
  });

  it('embeds the same plans for the browser, and leaves no slot or token unfilled', async () => {
    const { body } = await get('/pricing');
    // With the translations of the page's language only (none in English): the page shows no other.
    expect(embeddedPlans(body)).toEqual((await publicPlans()).filter(isListedPublicly).map((plan) => ({ ...plan, translations: {} })));
    const persian = embeddedPlans((await get('/fa/pricing')).body)!;
    expect(persian.map((plan) => Object.keys(plan.translations))).toEqual(persian.map(() => ['fa']));
    expect(body).not.toContain(ROOT_SLOT);
    expect(body).not.toContain(PLANS_SLOT);
    expect(body).not.toMatch(/%%[A-Z_]+%%/);
    expect(body).toContain('<title>Pricing | Lumen VPN</title>');
  });

  it('links Get to sign-in and then the payment dialog for that plan', async () => {
    const plusTwoYears = (await publicPlans()).find((plan) => plan.name === 'Plus 2 Years')!;
    const { body } = await get('/pricing');
    const next = encodeURIComponent(`/dashboard?plan=${plusTwoYears.id}`);
    expect(body).toContain(`href="/login?next=${next}"`);
  });

  it('shows a plan an admin creates at once, and drops it once disabled', async () => {
    const created = await adminCall('POST', '/api/admin/plans', {
      name: 'Weekend Pass',
      days: 3,
      dataLimitBytes: 20 * GB,
      price: 199,
      features: ['20 GB for a weekend away'],
    });
    expect(created.statusCode).toBe(201);
    const shown = textOf((await get('/pricing')).body);
    expect(shown).toContain('Weekend Pass');
    expect(shown).toContain('$1.99');
    expect(shown).toContain('20 GB for a weekend away');

    expect((await adminCall('PATCH', `/api/admin/plans/${created.json().id}`, { status: 'disabled' })).statusCode).toBe(200);
    const page = (await get('/pricing')).body;
    expect(textOf(page)).not.toContain('Weekend Pass');
    expect(embeddedPlans(page)!.some((plan) => plan.name === 'Weekend Pass')).toBe(false);
  });

  it("embeds a plan's Russian name in /ru/pricing as soon as an admin saves it, and English pages keep the English one", async () => {
    const [plus] = (await publicPlans()).filter((plan) => plan.tier === 'Plus');
    await get('/ru/pricing'); // rendered and cached before the change
    const saved = await adminCall('PATCH', `/api/admin/plans/${plus!.id}`, {
      translations: { ru: { name: 'Плюс Оператора', tier: 'Плюс', features: ['Свои слова оператора'] } },
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const russian = embeddedPlans((await get('/ru/pricing')).body)!.find((plan) => plan.id === plus!.id)!;
    expect(russian.translations).toEqual({ ru: { name: 'Плюс Оператора', tier: 'Плюс', features: ['Свои слова оператора'] } });
    const english = (await get('/pricing')).body;
    expect(embeddedPlans(english)!.find((plan) => plan.id === plus!.id)!.name).toBe(plus!.name);
    expect(textOf(english)).not.toContain('Плюс Оператора');
    await adminCall('PATCH', `/api/admin/plans/${plus!.id}`, { translations: plus!.translations });
  });

  it('never lists the trial or a plan hidden from the public pages (the dashboard still gets them)', async () => {
    await adminCall('POST', '/api/admin/plans', { name: 'Secret Trial', days: 0.125, dataLimitBytes: 300 * 1024 ** 2, price: 0, isTrial: true });
    await adminCall('POST', '/api/admin/plans', { name: 'Loyalty Deal', days: 365, dataLimitBytes: GB, price: 999, public: false });
    const page = (await get('/pricing')).body;
    expect(page).not.toContain('Secret Trial');
    expect(page).not.toContain('Loyalty Deal');
    expect((await publicPlans()).map((plan) => plan.name)).toEqual(expect.arrayContaining(['Secret Trial', 'Loyalty Deal']));
  });

  it('shows a change made elsewhere (another instance) once its cached copy expires, within seconds', async () => {
    expect(textOf((await get('/pricing')).body)).toContain('$12.99 billed every month');
    await env.database.db('plans').where({ name: 'Basic 1 Month' }).update({ price: 1111 });
    expect(textOf((await get('/pricing')).body)).toContain('$12.99 billed every month');

    t.clock.advance(LIVE_PAGE_TTL_MS / 1000 + 1);
    // The first visitor after the copy expires gets it while the page renders again (nobody waits on a
    // render); the next one gets the new page.
    expect(textOf((await get('/pricing')).body)).toContain('$12.99 billed every month');
    const text = textOf((await get('/pricing')).body);
    expect(text).toContain('$11.11 billed every month');
    expect(text).not.toContain('$12.99');
    await env.database.db('plans').where({ name: 'Basic 1 Month' }).update({ price: 1299 });
    t.clock.advance(LIVE_PAGE_TTL_MS / 1000 + 1);
  });

  it('says "Plans from $X/month" on the home page, from the cheapest listed month', async () => {
    const res = await get('/');
    expect(res.statusCode).toBe(200);
    expect(textOf(res.body)).toContain('Plans from $3.99 /month');
    expect(embeddedPlans(res.body)).toHaveLength(9);
  });

  it('shows the prices in the store currency as soon as an admin changes it, and names it on the pages that say it in words', async () => {
    for (const { currency, monthly, from, code } of [
      { currency: 'eur', monthly: '€12.99 billed every month', from: 'Plans from €3.99 /month', code: 'EUR' },
      // The same numbers are yen: no decimals (1299 is ¥1,299).
      { currency: 'jpy', monthly: '¥1,299 billed every month', from: 'Plans from ¥399 /month', code: 'JPY' },
      { currency: 'usd', monthly: '$12.99 billed every month', from: 'Plans from $3.99 /month', code: 'USD' },
    ]) {
      expect((await adminCall('PUT', '/api/admin/settings', { currency })).statusCode).toBe(200);
      const pricing = await get('/pricing');
      const text = textOf(pricing.body);
      expect(text, currency).toContain(monthly);
      expect(text).toContain(`Prices in ${code}.`);
      if (currency !== 'usd') expect(text).not.toMatch(/\$\d/);
      expect(JSON.parse(/<script type="application\/json" id="app-config">(.*?)<\/script>/.exec(pricing.body)![1]!).currency).toBe(currency);
      expect(textOf((await get('/')).body)).toContain(from);
      expect(textOf((await get('/terms')).body)).toContain(`All prices are in ${code}.`);
      expect(textOf((await get('/why-trust-us/crypto-payment')).body)).toContain(`in ${code}`);
    }
  });

  it('embeds no plans in pages that show none', async () => {
    const { body } = await get('/features/locations');
    expect(body).toContain('<script type="application/json" id="app-plans"></script>');
  });
});

describe('the pricing page without its server bundle', () => {
  const env = useTestEnvironment('sqlite');
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, overrides: { serverBundle: join(SITE_DIST_DIR, 'no-such-bundle.js') } });
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('is served whole, to be drawn in the browser (which fetches the plans)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/pricing' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
    expect(res.body).toContain('<script type="application/json" id="app-plans"></script>');
    expect(res.body).toContain('<title>Pricing | Lumen VPN</title>');
  });
});
