/**
 * `npm run bench:redaction` (`npx tsx server/bench/redaction.bench.ts`): what the log redaction costs `GET /sub/<token>`.
 * Two servers on one SQLite store of BENCH_USERS users (default 1,000,000; suite/seed.ts), both logging at `info`
 * as in production (two lines a request) into a stream that drops them (suite/serve.ts, BENCH_LOG): `redacted` with
 * the app's logger (lib/logger-options.ts: redact paths, the masking request and error serializers, the formatter
 * and hook that mask every value and message), `plain` with the same pino logger without any of them. They are
 * loaded in turn, plain, redacted, plain, …, plain; each redacted run's rate over the mean of the plain runs either
 * side of it, median over rounds. Target (issue 56): no measurable cost, taken as ≥ 0.95 (a run's noise here is
 * a few per cent). `npm run bench` runs it too (benchRedactionOn), on the suite's largest SQLite store
 * (`--no-redaction` skips it).
 *
 * BENCH_SECONDS (default 3) is the length of each measurement, BENCH_ROUNDS (default 5) their number,
 * BENCH_CONNECTIONS (default 50) the load. BENCH_CONTROL=1 gives the second server the plain logger too: the ratio
 * of two equal servers, the run's noise.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT_DIR } from '../src/lib/package-info.js';
import { run, settle, type Load, type Pace } from './suite/load.js';
import { BENCH_APP_SECRET, startPanelStub, startServer, type ServerProcess } from './suite/processes.js';
import { median, ratiosBetweenBaselines } from './suite/ratios.js';
import { ADMIN_EMAIL, seedDatabase, seeded } from './suite/seed.js';

export const REDACTION_GOAL = 0.95;
const CLIENT = { 'user-agent': 'v2rayNG/1.8.0' };

export interface RedactionBenchResult {
  users: number;
  /** Median rates, requests per second. */
  plain: number;
  redacted: number;
  /** Median over rounds of redacted over the plain runs either side. */
  ratio: number;
  ratios: number[];
}

const serverDir = () => {
  const built = join(ROOT_DIR, 'dist', 'server', 'src');
  return existsSync(join(built, 'app.js')) ? built : join(ROOT_DIR, 'server', 'src');
};

/** Loads `/sub` on a server with the app's logger and one without its redaction, in turn, on the store `databaseUrl`. */
export async function benchRedactionOn(databaseUrl: string, users: number, pace: Pace, rounds: number): Promise<RedactionBenchResult> {
  const started: ServerProcess[] = [];
  try {
    const start = async (log: 'plain' | 'redacted') => {
      const server = await startServer(databaseUrl, ADMIN_EMAIL, serverDir(), { BENCH_LOG: log });
      started.push(server);
      return server;
    };
    const plain = await start('plain');
    const redacted = await start(process.env.BENCH_CONTROL === '1' ? 'plain' : 'redacted');
    const tokens: string[] = [];
    for (let i = 5; tokens.length < 1000 && i < users; i += 1) if (seeded.hasAccount(i)) tokens.push(seeded.subToken(i));
    const sub: Load = { name: 'GET /sub (cached)', path: '/sub/x', headers: CLIENT, paths: tokens.map((token) => `/sub/${token}`) };
    const measure = async (server: ServerProcess) => {
      await settle(server.base);
      return (await run(server.base, sub, pace)).reqPerSec;
    };
    // Warm both: every link read once (the first through the panel), the code compiled.
    for (const server of [plain, redacted]) await run(server.base, sub, { connections: pace.connections, seconds: 3 });
    const plainRates = [await measure(plain)];
    const redactedRates: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      redactedRates.push(await measure(redacted));
      plainRates.push(await measure(plain));
    }
    const ratios = ratiosBetweenBaselines(plainRates, redactedRates);
    return { users, plain: median(plainRates), redacted: median(redactedRates), ratio: median(ratios), ratios };
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

export function printRedaction(result: RedactionBenchResult): void {
  console.log(
    `  ${result.ratio >= REDACTION_GOAL ? 'ok  ' : 'SLOW'} /sub with the log redaction: ${result.redacted.toFixed(0)} req/s, without it ` +
      `${result.plain.toFixed(0)} req/s (logging at info) = ${result.ratio.toFixed(2)} (rounds ${result.ratios.map((r) => r.toFixed(2)).join(', ')}; goal ≥ ${REDACTION_GOAL})`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const users = Number(process.env.BENCH_USERS ?? 1_000_000);
  const pace = { connections: Number(process.env.BENCH_CONNECTIONS ?? 50), seconds: Number(process.env.BENCH_SECONDS ?? 3) };
  const dir = mkdtempSync(join(tmpdir(), 'vpn-bench-redaction-'));
  const panel = await startPanelStub();
  try {
    console.log(`Seeding SQLite with ${users.toLocaleString('en')} users…`);
    const data = await seedDatabase('sqlite', users, { url: panel.url, appSecret: BENCH_APP_SECRET }, { dir, pgUrl: '' });
    printRedaction(await benchRedactionOn(data.url, users, pace, Number(process.env.BENCH_ROUNDS ?? 5)));
  } finally {
    await panel.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
