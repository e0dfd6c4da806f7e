import { join, resolve } from 'node:path';
import { z } from 'zod';
import { EmailSchema } from '../../shared/auth.js';
import { DEFAULT_CONCURRENCY, DEFAULT_LOCK_TIMEOUT_SECONDS } from './jobs/worker.js';

/** Every environment variable the server reads, validated once at start. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as https://vpn.example.com' }).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:|postgres(ql)?:\/\/)/, 'must start with sqlite: or postgres://')
    .default('sqlite:./data/app.db'),
  DATA_DIR: z.string().min(1).default('./data'),
  DESKTOP_UPDATES_DIR: z.string().min(1).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().min(3).optional(),
  ADMIN_EMAILS: z.string().default(''),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters (try: openssl rand -hex 32)').optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// URL')
    .optional(),
  STRIPE_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://127.0.0.1:12111' }).optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_\w+$/, 'must be a Stripe publishable key (pk_…)')
    .optional(),
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_\w+$/, 'must be a Stripe secret key (sk_… or rk_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, 'must be a Stripe webhook signing secret (whsec_…)')
    .optional(),
  STRIPE_TEST_CLOCKS: z.enum(['true', 'false', '1', '0']).optional(),
  YOOKASSA_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://127.0.0.1:12114/v3' }).optional(),
  CRYPTOPAY_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://127.0.0.1:12113/api' }).optional(),
  TELEGRAM_UPDATES: z.enum(['webhook', 'polling'], { error: 'is webhook or polling' }).optional(),
  TELEGRAM_API_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL such as http://127.0.0.1:8081 (a Bot API server)' }).optional(),
  TELEGRAM_SENDS_PER_SECOND: z.coerce.number().int().min(1, 'is at least 1').max(100_000).default(25),
  TRUST_PROXY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  STUCK_ACCOUNT_AFTER_SECONDS: z.coerce.number().int().min(1).default(300),
  STUCK_ACCOUNT_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(1).default(60),
  ALLOW_LINK_LOCAL_PANELS: z.enum(['true', 'false', '1', '0']).optional(),
  JOB_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(DEFAULT_CONCURRENCY),
  JOB_LEASE_SECONDS: z.coerce.number().int().min(5).max(3600).default(DEFAULT_LOCK_TIMEOUT_SECONDS),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_KEEP: z.coerce.number().int().min(1, 'is at least 1').max(10_000).default(7),
  BACKUP_TIME: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day HH:MM in UTC, such as 03:30')
    .optional(),
  BACKUP_PASSPHRASE: z.string().min(12, 'must be at least 12 characters').optional(),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters (try: openssl rand -hex 32)').optional(),
  METRICS_ADDRESS: z
    .string()
    .regex(/^(\[[0-9a-fA-F:]+\]|[\w.-]+):\d{1,5}$/, 'must be host:port, such as 127.0.0.1:9464')
    .refine((value) => Number(value.slice(value.lastIndexOf(':') + 1)) <= 65535, 'has a port over 65535')
    .optional(),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: URL;
  databaseUrl: string;
  dataDir: string;
  /** The desktop app's releases, a folder per channel, served at /desktop/updates/ (default DATA_DIR/desktop-updates). */
  desktopUpdatesDir: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  adminEmails: ReadonlySet<string>;
  /** Undefined means "generate one into dataDir" (never in production). */
  appSecret: string | undefined;
  redisUrl: string | undefined;
  stripeApiUrl: string | undefined;
  /** Test mode: each new Stripe customer runs on a test clock of its own, so renewals can be simulated (the demo, tests). */
  stripeTestClocks: boolean;
  /** Where YooKassa's API v3 is (`https://api.yookassa.ru/v3` unless set: the fake in tests and demos). */
  yookassaApiUrl: string | undefined;
  /** Where Crypto Pay's API is, for both networks (`https://pay.crypt.bot/api` or the testnet's unless set). */
  cryptopayApiUrl: string | undefined;
  /** Where the Telegram Bot API is (`https://api.telegram.org` unless set: a self-hosted Bot API server, or the fake in tests). */
  telegramApiUrl: string;
  /** How the bot gets its updates: Telegram posts them to the site (an https site), or this server asks for them (polling). */
  telegramUpdates: 'webhook' | 'polling';
  /** Messages a second this instance sends unasked (notices, broadcasts): under Telegram's 30 a bot. */
  telegramSendsPerSecond: number;
  /** Card keys from the environment: each overrides the one the admin saved. */
  stripeKeys: { publishableKey?: string; secretKey?: string; webhookSecret?: string };
  /** false, true, or a comma-separated list of proxy addresses/subnets to trust. */
  trustProxy: boolean | string;
  logLevel: string;
  /** The sweep of accounts a crash left waiting: how old a waiting row must be before it is repaired or removed, and how often it looks. */
  stuckAccounts: { afterSeconds: number; sweepIntervalSeconds: number };
  /** Panel URLs on link-local or cloud-metadata addresses (169.254.0.0/16, fe80::/10, fd00:ec2::254) are refused unless this is true. */
  allowLinkLocalPanels: boolean;
  /** Background jobs one instance runs at a time (the jobs of one account still run one after another). */
  jobConcurrency: number;
  /** How long a job an instance was running when it died waits before another instance (or the restarted one) takes it back. */
  jobLeaseSeconds: number;
  /** Backups (docs/backups.md): where they go, how many scheduled ones are kept, the daily time (UTC, null: none), the passphrase. */
  backups: { dir: string; keep: number; time: string | null; passphrase: string | undefined };
  /** Prometheus metrics at GET /metrics for a caller with this bearer token; not served on the site's port without one. */
  metricsToken: string | undefined;
  /** A second listener serving only /metrics, without a token (such as 127.0.0.1:9464): reachable only where that address is. */
  metricsAddress: { host: string; port: number } | undefined;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the environment. Throws ConfigError with one line per problem. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blankToUndefined = Object.fromEntries(Object.entries(env).map(([key, value]) => [key, value === '' ? undefined : value]));
  const parsed = EnvSchema.safeParse(blankToUndefined);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => {
        const key = issue.path.join('.');
        return `${key}: ${issue.message} (got ${JSON.stringify(env[key])})`;
      }),
    );
  }
  const e = parsed.data;
  const problems: string[] = [];

  const adminEmails = new Set<string>();
  for (const raw of e.ADMIN_EMAILS.split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const email = EmailSchema.safeParse(raw);
    if (email.success) adminEmails.add(email.data);
    else problems.push(`ADMIN_EMAILS: ${JSON.stringify(raw)} is not an e-mail address`);
  }
  if (e.NODE_ENV === 'production') {
    if (!e.SMTP_URL) problems.push('SMTP_URL: required in production, or nobody could receive a sign-in code');
    if (!e.APP_SECRET) problems.push('APP_SECRET: required in production (try: openssl rand -hex 32)');
    if (!e.PUBLIC_URL) problems.push('PUBLIC_URL: required in production (the address customers use)');
    if (e.STUCK_ACCOUNT_AFTER_SECONDS < 60)
      problems.push('STUCK_ACCOUNT_AFTER_SECONDS: at least 60 in production (a request still creating an account must never be swept)');
  }
  if (e.BACKUP_TIME && !e.BACKUP_PASSPHRASE) problems.push('BACKUP_PASSPHRASE: required when BACKUP_TIME is set (the backups are encrypted with it)');
  if (problems.length > 0) throw new ConfigError(problems);

  const publicUrl = new URL(e.PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.DATA_DIR,
    // Absolute: the folder is served by @fastify/static, which takes no other (and the working folder may change).
    desktopUpdatesDir: resolve(e.DESKTOP_UPDATES_DIR ?? join(e.DATA_DIR, 'desktop-updates')),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `no-reply@${publicUrl.hostname}`,
    adminEmails,
    appSecret: e.APP_SECRET,
    redisUrl: e.REDIS_URL,
    stripeApiUrl: e.STRIPE_API_URL,
    stripeTestClocks: e.STRIPE_TEST_CLOCKS === 'true' || e.STRIPE_TEST_CLOCKS === '1',
    yookassaApiUrl: e.YOOKASSA_API_URL,
    cryptopayApiUrl: e.CRYPTOPAY_API_URL,
    telegramApiUrl: (e.TELEGRAM_API_URL || 'https://api.telegram.org').replace(/\/+$/, ''),
    telegramUpdates: e.TELEGRAM_UPDATES ?? (publicUrl.protocol === 'https:' ? 'webhook' : 'polling'),
    telegramSendsPerSecond: e.TELEGRAM_SENDS_PER_SECOND,
    stripeKeys: {
      ...(e.STRIPE_PUBLISHABLE_KEY ? { publishableKey: e.STRIPE_PUBLISHABLE_KEY } : {}),
      ...(e.STRIPE_SECRET_KEY ? { secretKey: e.STRIPE_SECRET_KEY } : {}),
      ...(e.STRIPE_WEBHOOK_SECRET ? { webhookSecret: e.STRIPE_WEBHOOK_SECRET } : {}),
    },
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    logLevel: e.LOG_LEVEL,
    stuckAccounts: { afterSeconds: e.STUCK_ACCOUNT_AFTER_SECONDS, sweepIntervalSeconds: e.STUCK_ACCOUNT_SWEEP_INTERVAL_SECONDS },
    allowLinkLocalPanels: e.ALLOW_LINK_LOCAL_PANELS === 'true' || e.ALLOW_LINK_LOCAL_PANELS === '1',
    jobConcurrency: e.JOB_CONCURRENCY,
    jobLeaseSeconds: e.JOB_LEASE_SECONDS,
    backups: {
      dir: resolve(e.BACKUP_DIR ?? join(e.DATA_DIR, 'backups')),
      keep: e.BACKUP_KEEP,
      time: e.BACKUP_TIME ?? null,
      passphrase: e.BACKUP_PASSPHRASE,
    },
    metricsToken: e.METRICS_TOKEN,
    metricsAddress: parseAddress(e.METRICS_ADDRESS),
  };
}

function parseTrustProxy(value: string | undefined): boolean | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  return value;
}

/** `host:port` (an IPv6 host in brackets) as its parts. */
function parseAddress(value: string | undefined): { host: string; port: number } | undefined {
  if (value === undefined) return undefined;
  const at = value.lastIndexOf(':');
  return { host: value.slice(0, at).replace(/^\[(.*)\]$/, '$1'), port: Number(value.slice(at + 1)) };
}
