/** Loading the server with wrk (when installed) or autocannon, and the baseline-target-baseline rounds of the method. */
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { median, ratiosBetweenBaselines } from './ratios.js';
import { runWrk, runWrkBurst, wrkAvailable } from './wrk-load.js';

export interface Load {
  name: string;
  path: string;
  headers?: Record<string, string>;
  /** A new path for every request (unknown tokens, round-robin over accounts). */
  nextPath?: () => string;
  /** The same as a Lua expression, for wrk (a load with `nextPath` and no `luaPath` or `paths` is loaded by autocannon, baselines too). */
  luaPath?: string;
  /** Paths asked in turn, one per request, by either client (a list wrk can be given, unlike `nextPath`). */
  paths?: readonly string[];
  /** Send exactly this many requests instead of loading for the round's duration. */
  amount?: number;
  /** The status every answer must have (default 200). */
  status?: number;
  /** Shown for what it tells, with no goal of its own. */
  noGoal?: boolean;
}

export interface Pace {
  connections: number;
  /** Seconds per measurement. */
  seconds: number;
}

export interface Rate {
  reqPerSec: number;
  p99: number;
}

export const BASELINE: Load = { name: 'GET /robots.txt (baseline)', path: '/robots.txt' };

/** Which client loads a run: wrk when installed, except for paths only Node can make. */
export function clientFor(load: Load): 'wrk' | 'autocannon' {
  return wrkAvailable() && (!load.nextPath || load.luaPath !== undefined || load.paths !== undefined) ? 'wrk' : 'autocannon';
}

/** Loads `base` with `load`; throws when any answer has another status than expected (a broken route measures nothing). */
export async function run(base: string, load: Load, pace: Pace, client = clientFor(load)): Promise<Rate> {
  if (client === 'wrk') return load.amount ? runWrkBurst(base, load, load.amount, pace.connections) : runWrk(base, load, pace);
  const paths = load.paths;
  let asked = 0;
  const nextPath = paths ? () => paths[asked++ % paths.length]! : load.nextPath;
  const expected = load.status ?? 200;
  const started = performance.now();
  let lastAnswer = started;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${base}${load.path}`,
        connections: pace.connections,
        headers: load.headers,
        ...(load.amount ? { amount: load.amount } : { duration: pace.seconds }),
        ...(nextPath ? { requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: nextPath() }) }] } : {}),
      },
      (err, done) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(done)),
    );
    instance.on('response', () => {
      lastAnswer = performance.now();
    });
  });
  const wrong = Object.entries(result.statusCodeStats ?? {}).filter(([code]) => Number(code) !== expected);
  // A request over autocannon's 10 s timeout counts as not answered (the rate shows it), not as a failure.
  if (result.errors - result.timeouts > 0 || wrong.length > 0) {
    throw new Error(
      `${load.name}: ${result.errors} errors, ${result.timeouts} timeouts, answers ${JSON.stringify(result.statusCodeStats)} (expected ${expected}) of ${result.requests.total}`,
    );
  }
  // With `amount`, autocannon ends on its next whole-second tick (its duration and per-second average are then
  // about one second whatever the load took): the rate is the answers over the time to the last one.
  const reqPerSec = load.amount ? result.requests.total / (Math.max(1, lastAnswer - started) / 1000) : result.requests.average;
  return { reqPerSec, p99: result.latency.p99 };
}

/**
 * Waits until the server answers the baseline promptly twice in a row: requests a slow target left in
 * flight when its load ended (a synchronous SQLite query holds the whole process) must not count against
 * the next measurement. Returns the seconds waited.
 */
export async function settle(base: string, promptMs = 100, timeoutMs = 120_000): Promise<number> {
  const started = performance.now();
  let prompt = 0;
  while (prompt < 2 && performance.now() - started < timeoutMs) {
    const asked = performance.now();
    await (await fetch(`${base}${BASELINE.path}`)).arrayBuffer();
    prompt = performance.now() - asked < promptMs ? prompt + 1 : 0;
    if (prompt === 0) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return (performance.now() - started) / 1000;
}

export interface Measured {
  load: Load;
  /** Median over rounds of the ratio to the baselines around it. */
  ratio: number;
  reqPerSec: number;
  p99: number;
  ratios: number[];
  baseline: number;
}

/**
 * `rounds` rounds of baseline, load 1, baseline, load 2, …, baseline on one server; each load's ratio is
 * the median over rounds of its rate over the mean of the two baselines around it.
 */
export async function measureRounds(base: string, loads: Load[], pace: Pace, rounds: number): Promise<Measured[]> {
  const perRound: Array<{ rates: Rate[]; ratios: number[]; baselines: number[] }> = [];
  for (let round = 0; round < rounds; round += 1) {
    // Each target is measured between baselines loaded by the same client (a client's own costs are in both):
    // where the client changes, the baseline after the last target is measured again with the next one.
    let client = clientFor(loads[0] ?? BASELINE);
    const baseline = async () => {
      const rate = (await run(base, BASELINE, pace, client)).reqPerSec;
      await settle(base);
      return rate;
    };
    await settle(base);
    let before = await baseline();
    const baselines = [before];
    const rates: Rate[] = [];
    const ratios: number[] = [];
    for (const load of loads) {
      if (clientFor(load) !== client) {
        client = clientFor(load);
        before = await baseline();
        baselines.push(before);
      }
      const rate = await run(base, load, pace).catch((err: unknown) => {
        // One broken route must not cost the whole run: it shows as an error, the others are measured.
        console.error(`  ${err instanceof Error ? err.message : String(err)}`);
        return { reqPerSec: Number.NaN, p99: Number.NaN };
      });
      rates.push(rate);
      const waited = await settle(base);
      if (waited > 1) console.log(`  (${load.name}: the server took ${waited.toFixed(0)} s to answer promptly again after its load)`);
      const after = await baseline();
      baselines.push(after);
      ratios.push(ratiosBetweenBaselines([before, after], [rate.reqPerSec])[0]!);
      before = after;
    }
    perRound.push({ rates, baselines, ratios });
  }
  return loads.map((load, i) => ({
    load,
    ratio: median(perRound.map((r) => r.ratios[i]!)),
    reqPerSec: median(perRound.map((r) => r.rates[i]!.reqPerSec)),
    p99: median(perRound.map((r) => r.rates[i]!.p99)),
    ratios: perRound.map((r) => r.ratios[i]!),
    baseline: median(perRound.flatMap((r) => r.baselines)),
  }));
}
