/** The processes the suite runs: the server under load (serve.ts) and the panel stub, each forked over IPC. */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { ChildMessage } from './serve.js';

const SERVE = fileURLToPath(new URL('./serve.ts', import.meta.url));
const PANEL_STUB = fileURLToPath(new URL('./panel-stub.ts', import.meta.url));
const START_TIMEOUT_MS = 60_000;
/** The server's APP_SECRET: the seed seals the panel password with it. */
export const BENCH_APP_SECRET = 'bench-secret-bench-secret-bench-secret-00';

function forkTs(file: string, env: Record<string, string>, nodeFlags: string[] = []): ChildProcess {
  return forkNode(file, ['--import', 'tsx', ...nodeFlags], env);
}

function forkNode(file: string, execArgv: string[], env: Record<string, string>): ChildProcess {
  return fork(file, [], {
    execArgv,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/** The node flags a `start` script runs `dist/server/src/main.js` with. */
export function startFlagsOf(script: string): string[] {
  const flags = /\bnode ((?:--\S+ )*)dist\/server\/src\/main\.js/.exec(script);
  if (!flags) throw new Error(`package.json's start script does not run node … dist/server/src/main.js: ${script}`);
  return flags[1]!.split(' ').filter(Boolean);
}

/**
 * The node flags `npm start` runs the server with (package.json), so the suite measures the same heap settings;
 * then BENCH_SERVER_FLAGS, to look inside the server under load (`--cpu-prof --cpu-prof-dir=/tmp/prof`).
 */
export function startFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(fileURLToPath(new URL('../../../package.json', import.meta.url)), 'utf8')) as { scripts: { start: string } };
  return [...startFlagsOf(scripts.start), ...(process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [])];
}

let serveJs: string | undefined;
/**
 * serve.ts as plain JavaScript (its imports of the app are types only): a built server then runs without
 * tsx, as `npm start` runs it. tsx's loader (hooks on a thread of their own, with esbuild) adds some 45 MB
 * to the process's RSS, which would be counted as the server's.
 */
function serveAsJs(): string {
  if (!serveJs) {
    const { outputText } = ts.transpileModule(readFileSync(SERVE, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    });
    serveJs = join(mkdtempSync(join(tmpdir(), 'vpn-bench-serve-')), 'serve.mjs');
    writeFileSync(serveJs, outputText);
    process.once('exit', () => rmSync(dirname(serveJs!), { recursive: true, force: true }));
  }
  return serveJs;
}

function waitForPort(child: ChildProcess, what: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start in ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    child.on('message', (message: ChildMessage) => {
      if ('port' in message) {
        clearTimeout(timer);
        resolve(message.port);
      }
    });
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before listening`)));
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export async function startPanelStub(): Promise<{ url: string; stop(): Promise<void> }> {
  const child = forkTs(PANEL_STUB, {});
  const port = await waitForPort(child, 'the panel stub');
  return { url: `http://127.0.0.1:${port}`, stop: () => stop(child) };
}

export interface ServerProcess {
  pid: number;
  base: string;
  /** Signs `email` in with the code the server mailed: the `authorization` header of a desktop session. */
  signIn(email: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * The server on `databaseUrl` (migrated and seeded), in production mode, listening on a free port of
 * 127.0.0.1, with `npm start`'s node flags; its code from `serverDir`: TypeScript sources run through tsx,
 * a build (`.js`) by plain node.
 */
export async function startServer(databaseUrl: string, adminEmail: string, serverDir: string, extraEnv: Record<string, string> = {}): Promise<ServerProcess> {
  const env = {
    ...extraEnv,
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    APP_SECRET: BENCH_APP_SECRET,
    PUBLIC_URL: 'http://127.0.0.1',
    SMTP_URL: 'smtp://127.0.0.1:1',
    LOG_LEVEL: 'warn',
    ADMIN_EMAILS: adminEmail,
    BENCH_SERVER_DIR: serverDir,
  };
  const child = existsSync(join(serverDir, 'app.js')) ? forkNode(serveAsJs(), startFlags(), env) : forkTs(SERVE, env, startFlags());
  const port = await waitForPort(child, 'the server');
  const base = `http://127.0.0.1:${port}`;
  const codes = new Map<string, (subject: string) => void>();
  child.on('message', (message: ChildMessage) => {
    if ('mail' in message) codes.get(message.mail.to)?.(message.mail.subject);
  });
  const post = (path: string, body: unknown) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return {
    pid: child.pid!,
    base,
    async signIn(email) {
      const mailed = new Promise<string>((resolve) => codes.set(email, resolve));
      const asked = await post('/api/auth/otp', { email });
      if (!asked.ok) throw new Error(`sign-in code for ${email}: HTTP ${asked.status} ${await asked.text()}`);
      const code = /(\d{6}) is your/.exec(await mailed)?.[1];
      codes.delete(email);
      const verified = await post('/api/auth/verify', { email, code, client: 'desktop' });
      if (!verified.ok) throw new Error(`sign-in of ${email}: HTTP ${verified.status} ${await verified.text()}`);
      return `Bearer ${((await verified.json()) as { accessToken: string }).accessToken}`;
    },
    stop: () => stop(child),
  };
}

/** Samples the resident memory of process `pid` (Linux /proc) until `stop`, which returns the largest seen, in MB. */
export function sampleRss(pid: number, everyMs = 100): { stop(): number } {
  let max = 0;
  const sample = () => {
    try {
      const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
      max = Math.max(max, kb / 1024);
    } catch {
      // the process is gone: keep what was seen
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return max;
    },
  };
}

const TLS_PANEL = fileURLToPath(new URL('./tls-panel.ts', import.meta.url));

/** A Remnawave panel behind TLS in a process of its own (tls-panel.ts), answering after `delayMs`; its users' subscription URLs. */
export async function startTlsPanel(delayMs: number): Promise<{ url: string; apiToken: string; subscriptionUrls: string[]; stop(): Promise<void> }> {
  const child = forkTs(TLS_PANEL, { BENCH_PANEL_DELAY: String(delayMs) });
  const ready = await new Promise<{ url: string; apiToken: string; subscriptionUrls: string[] }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the TLS panel did not start in ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
    child.on('message', (message: { url?: string; apiToken?: string; subscriptionUrls?: string[] }) => {
      if (message.url && message.apiToken && message.subscriptionUrls) {
        clearTimeout(timer);
        resolve({ url: message.url, apiToken: message.apiToken, subscriptionUrls: message.subscriptionUrls });
      }
    });
    child.once('exit', (code) => reject(new Error(`the TLS panel exited (${code}) before listening`)));
  });
  return { ...ready, stop: () => stop(child) };
}
