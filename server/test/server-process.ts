import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createDb } from '../src/db/knex.js';
import { ROOT_DIR } from '../src/lib/package-info.js';

const MAIN = join(ROOT_DIR, 'server', 'src', 'main.ts');

/**
 * The real server (`server/src/main.ts`) in a child process of its own: node itself with tsx's
 * loader, not the `tsx` wrapper, so a signal (SIGKILL too) reaches the server and not a parent that
 * would leave it running.
 */
export interface ServerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

export function startServerProcess(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    cwd: ROOT_DIR,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** The address the server printed once it listens. */
export async function waitForListening(server: ServerProcess): Promise<string> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(server.output());
    if (match) return match[1]!;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not start:\n${server.output()}`);
}

/** A DATABASE_URL for a fresh, empty database of this kind, and how to inspect and drop it. */
export async function emptyDatabase(kind: string, dir: string) {
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

/** The sign-in code the server printed for `email` (no SMTP_URL: e-mails go to the log), the latest one. */
export function printedCode(output: string, email: string): string | undefined {
  const blocks = output
    .split('E-MAIL (not sent')
    .slice(1)
    .filter((block) => block.includes(email));
  return /\n\s+(\d{6})\n/.exec(blocks.at(-1) ?? '')?.[1];
}
