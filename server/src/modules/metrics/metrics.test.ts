import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_DATABASES } from '../../../test/databases.js';
import { useTestEnvironment } from '../../../test/environment.js';
import { startFakeMarzneshin, type FakeMarzneshin } from '../../../test/fake-panels/marzneshin.js';
import { buildTestApp, signInWeb, TEST_ORIGIN, type TestApp, type WebSession } from '../../../test/test-app.js';
import { schedulePeriodicJob } from '../../jobs/periodic-jobs.js';
import { createMarzneshinDriver } from '../../panels/marzneshin.js';
import { CHECK_PANEL_HEALTH } from '../servers/check-panel-health.js';

const TOKEN = 'metrics-token-0123456789abcdef';
const ADMIN = 'admin@example.com';

/** The value of one series in Prometheus's text format (`name{labels} value`), or undefined when it is not there. */
function valueOf(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics without METRICS_TOKEN', () => {
  const env = useTestEnvironment('sqlite');
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db });
  });
  afterAll(async () => t.app.close());

  it('is not served on the site’s port: 404, whatever the caller sends', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found', message: expect.any(String) });
    }
  });
});

describe.each(TEST_DATABASES)('GET /metrics (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  let admin: WebSession;
  let panel: FakeMarzneshin;
  let serverId: string;

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    return res.body;
  };

  /** Later: the due jobs (the panel health check among them) run. */
  async function tick(seconds = 61): Promise<void> {
    t.clock.advance(seconds);
    while (await t.app.jobWorker.runOnce()) {
      /* every due job */
    }
  }

  beforeAll(async () => {
    panel = await startFakeMarzneshin();
    t = await buildTestApp({
      db: env.database.db,
      smtp: env.smtp,
      env: { ADMIN_EMAILS: ADMIN, METRICS_TOKEN: TOKEN },
      overrides: { driverFactory: (_kind, connection) => createMarzneshinDriver(connection, { timeoutMs: 500 }) },
    });
    admin = await signInWeb(t, env.smtp, ADMIN);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/servers',
      headers: { origin: TEST_ORIGIN, cookie: admin.cookie },
      payload: {
        kind: 'marzneshin',
        name: 'Germany',
        url: panel.url,
        username: panel.admin.username,
        password: panel.admin.password,
        serviceId: '1',
        locations: 'all',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    serverId = res.json().id;
    await schedulePeriodicJob(t.app.services.jobs, CHECK_PANEL_HEALTH, t.clock.now());
  });
  afterAll(async () => {
    await t.app.close();
    await panel.close();
  });

  it('answers 401 { code, message } without the token or with a wrong one', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef', TOKEN, `Basic ${TOKEN}`]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json()).toEqual({ code: 'unauthenticated', message: expect.any(String) });
    }
  });

  it('times requests by route pattern, never by URL, and shows the job queue', async () => {
    const secret = 'a-subscription-token-never-in-metrics';
    await t.app.inject({ method: 'GET', url: `/sub/${secret}`, headers: { 'user-agent': 'v2rayNG/1.8.0' } });
    await t.app.inject({ method: 'GET', url: `/api/admin/servers/${serverId}/services`, headers: { cookie: admin.cookie } });
    const text = await scrape();
    expect(text).toContain('# TYPE storefront_http_request_duration_seconds histogram');
    expect(valueOf(text, 'storefront_http_request_duration_seconds_count{method="GET",route="/sub/*",status="404"}')).toBe(1);
    expect(text).toMatch(/storefront_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/sub\/\*",status="404"\} \d/);
    expect(text).toMatch(/route="\/api\/admin\/servers\/:id\/services"/);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(serverId.slice(0, 8) + '",status'); // the id is a label of panel gauges only
    expect(text).toContain('# TYPE storefront_jobs_queued gauge');
    expect(valueOf(text, 'storefront_jobs_queued{state="due"}')).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'storefront_jobs_oldest_due_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(valueOf(text, 'storefront_active_accounts')).toBe(0);
  });

  it('shows the oldest due job’s age, read when scraped', async () => {
    await t.app.services.jobs.enqueue({ type: 'metrics_test_job', payload: {} }, t.clock.now());
    t.clock.advance(90);
    const text = await scrape();
    expect(valueOf(text, 'storefront_jobs_oldest_due_age_seconds')).toBeGreaterThanOrEqual(90);
    expect(valueOf(text, 'storefront_jobs_queued{state="due"}')).toBeGreaterThanOrEqual(1);
    await t.app.services.jobs.complete(
      (await t.app.services.jobs.claimNext({ workerId: 'test', now: t.clock.now(), types: ['metrics_test_job'], lockTimeoutSeconds: 60 }))!.id,
      t.clock.now(),
    );
  });

  it('counts sign-in codes sent and refused', async () => {
    const before = await scrape();
    const sent = valueOf(before, 'storefront_sign_in_codes_sent_total') ?? 0;
    await signInWeb(t, env.smtp, 'customer@example.com');
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/verify',
      headers: { origin: TEST_ORIGIN },
      payload: { email: 'nobody@example.com', code: '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    const after = await scrape();
    expect(valueOf(after, 'storefront_sign_in_codes_sent_total')).toBe(sent + 1);
    expect(valueOf(after, 'storefront_sign_in_codes_refused_total{reason="expired"}')).toBe(1);
  });

  it('shows a panel up after its health check, and down once its server stopped and the checks ran', async () => {
    await tick();
    const up = await scrape();
    expect(valueOf(up, `storefront_panel_up{server_id="${serverId}",server="Germany"}`)).toBe(1);
    expect(valueOf(up, `storefront_panel_latency_seconds{server_id="${serverId}",server="Germany"}`)).toBeGreaterThanOrEqual(0);

    await panel.close();
    await tick(); // one failure: not down yet
    await tick(21); // the second in a row
    const down = await scrape();
    expect(valueOf(down, `storefront_panel_up{server_id="${serverId}",server="Germany"}`)).toBe(0);
    expect(valueOf(down, `storefront_panel_latency_seconds{server_id="${serverId}",server="Germany"}`)).toBeUndefined();
  });
});

describe('METRICS_ADDRESS', () => {
  const env = useTestEnvironment('sqlite');
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, env: { METRICS_ADDRESS: '127.0.0.1:0' } });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => t.app.close());

  it('serves /metrics without a token on its own address, and only there', async () => {
    // Started by the app's onListen hook, which runs as the app starts listening.
    const address = await vi.waitFor(() => {
      const bound = t.app.services.metricsListener?.address();
      if (!bound) throw new Error('not listening yet');
      return bound;
    });
    const res = await fetch(`http://127.0.0.1:${address!.port}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('storefront_jobs_queued');
    expect((await fetch(`http://127.0.0.1:${address!.port}/api/health`)).status).toBe(404);
    // The site's port serves none (no METRICS_TOKEN).
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });
});
