import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../test/databases.js';
import { emptyDatabase, startServerProcess as startServer, waitForListening } from '../test/server-process.js';

describe('the server process', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterEach(() => {
    children.splice(0).forEach((child) => child.exitCode === null && child.kill('SIGKILL'));
    dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  it.each(TEST_DATABASES)(
    'migrates an empty %s database, creates its secret and the default plans on first start, serves, and shuts down cleanly on SIGTERM',
    async (kind) => {
      const dir = mkdtempSync(join(tmpdir(), 'vpn-main-'));
      dirs.push(dir);
      const database = await emptyDatabase(kind, dir);
      const server = startServer({ PORT: '0', DATA_DIR: join(dir, 'data'), DATABASE_URL: database.url });
      children.push(server.child);
      const base = await waitForListening(server);

      const health = await fetch(`${base}/api/health`);
      expect(health.status).toBe(200);
      expect(await database.created()).toBe(true);
      expect(existsSync(join(dir, 'data', 'app-secret'))).toBe(true);

      // A fresh install starts with the default plans, so its pricing page has something to sell.
      const plans = await fetch(`${base}/api/plans`);
      const seeded = (await plans.json()) as Array<{ tier: string }>;
      expect(seeded.map((plan) => plan.tier)).toEqual(['Complete', 'Complete', 'Complete', 'Plus', 'Plus', 'Plus', 'Basic', 'Basic', 'Basic']);

      const otp = await fetch(`${base}/api/auth/otp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'first@example.com' }),
      });
      expect(otp.status).toBe(200);
      expect(server.output()).toMatch(/E-MAIL \(not sent: SMTP_URL is not set[\s\S]*To:\s+first@example\.com[\s\S]*\n\s+\d{6}\n/);

      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      await database.drop();
    },
  );

  it('refuses to start in production without SMTP_URL, and says why', async () => {
    const server = startServer({ NODE_ENV: 'production', APP_SECRET: 'x'.repeat(40), PUBLIC_URL: 'https://vpn.example.com' });
    children.push(server.child);
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('SMTP_URL: required in production');
    expect(server.output()).toContain('The server did not start');
  });
});
