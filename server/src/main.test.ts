import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../test/databases.js';
import { createDb } from './db/knex.js';
import { ROOT_DIR } from './lib/package-info.js';

const TSX = join(ROOT_DIR, 'node_modules', '.bin', 'tsx');
const MAIN = join(ROOT_DIR, 'server', 'src', 'main.ts');

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startServer(env: Record<string, string>): Started {
  const child = spawn(TSX, [MAIN], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function waitForListening(server: Started): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output());
    if (match) return match[1]!;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not start:\n${server.output()}`);
}

/** A DATABASE_URL for a fresh, empty database of this kind, and how to inspect and drop it. */
async function emptyDatabase(kind: string, dir: string) {
  if (kind === 'sqlite') {
    const url = `sqlite:${join(dir, 'data', 'app.db')}`;
    return { url, created: () => existsSync(join(dir, 'data', 'app.db')), drop: async () => {} };
  }
  const schema = `main_${randomBytes(5).toString('hex')}`;
  const admin = createDb(process.env.TEST_DATABASE_URL!);
  await admin.raw('CREATE SCHEMA ??', [schema]);
  const url = `${process.env.TEST_DATABASE_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    url,
    created: async () => (await admin('information_schema.tables').where({ table_schema: schema, table_name: 'user_profiles' })).length === 1,
    drop: async () => {
      await admin.raw('DROP SCHEMA ?? CASCADE', [schema]);
      await admin.destroy();
    },
  };
}

describe('the server process', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterEach(() => {
    children.splice(0).forEach((child) => child.exitCode === null && child.kill('SIGKILL'));
    dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  it.each(TEST_DATABASES)('migrates an empty %s database and creates its secret on first start, serves, and shuts down cleanly on SIGTERM', async (kind) => {
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

    const otp = await fetch(`${base}/api/auth/otp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'first@example.com' }) });
    expect(otp.status).toBe(200);
    expect(server.output()).toMatch(/E-MAIL \(not sent: SMTP_URL is not set[\s\S]*To:\s+first@example\.com[\s\S]*\n\s+\d{6}\n/);

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    await database.drop();
  });

  it('refuses to start in production without SMTP_URL, and says why', async () => {
    const server = startServer({ NODE_ENV: 'production', APP_SECRET: 'x'.repeat(40), PUBLIC_URL: 'https://vpn.example.com' });
    children.push(server.child);
    expect(await server.exited).toBe(1);
    expect(server.output()).toContain('SMTP_URL: required in production');
    expect(server.output()).toContain('The server did not start');
  });
});
