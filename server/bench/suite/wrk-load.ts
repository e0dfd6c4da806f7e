/**
 * Loading the server with wrk (Debian's `wrk`, C, one thread) when it is installed: autocannon runs in
 * Node and pays for every answer it reads, so on a machine where it cannot read larger answers as fast as
 * the server writes them (2026-11-27: the built server 58 % idle while autocannon loaded `/pricing`), its
 * rate is the client's. `BENCH_LOAD=autocannon` keeps autocannon.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

export interface WrkLoad {
  name: string;
  path: string;
  headers?: Record<string, string>;
  /** A Lua expression giving each request's path (wrk's `request` function), for loads that ask a new path each time. */
  luaPath?: string;
  /** Paths asked in turn, one per request (wrk gets the list in its script). */
  paths?: readonly string[];
  status?: number;
}

let available: boolean | undefined;

/** Whether wrk is installed and not turned off by `BENCH_LOAD=autocannon`. */
export function wrkAvailable(): boolean {
  if (available === undefined) {
    if (process.env.BENCH_LOAD === 'autocannon') return (available = false);
    try {
      execFileSync('wrk', ['--version'], { stdio: 'ignore' });
      available = true;
    } catch (err) {
      // wrk prints its usage and exits 1 for --version: it is there.
      available = (err as { status?: number }).status === 1;
    }
  }
  return available;
}

/** wrk's latency text (`712.00us`, `1.23ms`, `2.00s`) in milliseconds. */
export function latencyMs(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!match) return Number.NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 'ms' ? value : match[2] === 's' ? value * 1000 : value * 60_000;
}

/** A script that counts answers with another status than expected (and asks a new path each time, when given). */
function script(load: WrkLoad): string {
  const expected = load.status ?? 200;
  return `local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) wrong = 0 end
local chars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
function token(n)
  local out = {}
  for i = 1, n do local k = math.random(1, #chars); out[i] = chars:sub(k, k) end
  return table.concat(out)
end
${requestFunction(load)}
response = function(status, headers, body) if status ~= ${expected} then wrong = wrong + 1 end end
function done(summary, latency, requests)
  local total = 0
  for _, t in ipairs(threads) do total = total + t:get("wrong") end
  io.write("WRONG_STATUS " .. total .. "\\n")
end
`;
}

function requestFunction(load: WrkLoad): string {
  if (load.paths) {
    return `local paths = {${load.paths.map(luaString).join(',')}}
local asked = 0
request = function() asked = asked + 1; return wrk.format(nil, paths[(asked - 1) % #paths + 1]) end`;
  }
  return load.luaPath ? `request = function() return wrk.format(nil, ${load.luaPath}) end` : '';
}

const luaString = (text: string) => JSON.stringify(text);

/**
 * A script for a burst of `amount` answers: it times the burst itself (LuaJIT's FFI reads the monotonic clock
 * when wrk sets the thread up, before it connects, and at the last answer) and prints
 * `BURST <answers> <seconds> <wrong>` then. wrk itself stops only at the end of its duration: the suite ends it
 * on that line.
 */
function burstScript(load: WrkLoad, amount: number): string {
  return `local ffi = require("ffi")
ffi.cdef[[ typedef struct { long tv_sec; long tv_nsec; } bench_timespec; int clock_gettime(int, bench_timespec *); ]]
local clock = ffi.new("bench_timespec")
local function now() ffi.C.clock_gettime(1, clock); return tonumber(clock.tv_sec) + tonumber(clock.tv_nsec) / 1e9 end
local started, answered, wrong = 0, 0, 0
function init(args) started = now() end
${requestFunction(load)}
response = function(status, headers, body)
  answered = answered + 1
  if status ~= ${load.status ?? 200} then wrong = wrong + 1 end
  if answered == ${amount} then
    io.write(string.format("BURST %d %.6f %d\\n", answered, now() - started, wrong))
    io.flush()
    wrk.thread:stop()
  end
end
`;
}

/** Parses a burst's line: its answers, seconds and the answers that were not as expected; null without one. */
export function parseBurst(out: string): { answers: number; seconds: number; wrong: number } | null {
  const match = /^BURST (\d+) ([\d.]+) (\d+)$/m.exec(out);
  return match ? { answers: Number(match[1]), seconds: Number(match[2]), wrong: Number(match[3]) } : null;
}

/** wrk stops at the end of its duration whatever its script does: a burst's is a time limit. */
const BURST_LIMIT_SECONDS = 60;

/**
 * `amount` requests over `connections` (each asks again as soon as it is answered; the last ones of the
 * connections still asking when the amount is reached are not counted): the rate is the answers over the
 * time from setting up (connecting included, as autocannon counts it) to the last answer.
 */
export async function runWrkBurst(base: string, load: WrkLoad, amount: number, connections: number): Promise<{ reqPerSec: number; p99: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'vpn-bench-wrk-'));
  try {
    const file = join(dir, 'burst.lua');
    writeFileSync(file, burstScript(load, amount));
    const headers = Object.entries(load.headers ?? {}).flatMap(([key, value]) => ['-H', `${key}: ${value}`]);
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn('wrk', ['-t1', `-c${connections}`, `-d${BURST_LIMIT_SECONDS}s`, '-s', file, ...headers, `${base}${load.path}`], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        text += chunk;
        if (parseBurst(text)) child.kill('SIGKILL');
      });
      child.stderr.resume();
      child.once('error', reject);
      child.once('close', () => resolve(text));
    });
    const burst = parseBurst(out);
    if (!burst) throw new Error(`${load.name}: ${amount} answers did not come within ${BURST_LIMIT_SECONDS} s`);
    if (burst.wrong > 0) throw new Error(`${load.name}: ${burst.wrong} of ${burst.answers} answers with another status than ${load.status ?? 200}`);
    return { reqPerSec: burst.answers / burst.seconds, p99: Number.NaN };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Parses wrk's report: requests a second, p99 and the answers that were not as expected. */
export function parseWrk(out: string): { reqPerSec: number; p99: number; wrong: number; errors: string | null } {
  const reqPerSec = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? Number.NaN);
  const p99 = latencyMs(/^\s*99%\s+(\S+)/m.exec(out)?.[1] ?? '');
  const wrong = Number(/WRONG_STATUS (\d+)/.exec(out)?.[1] ?? Number.NaN);
  const errors = /Socket errors: ([^\n]+)/.exec(out)?.[1] ?? null;
  return { reqPerSec, p99, wrong, errors };
}

/** One load of `seconds` with `connections` on one wrk thread (the other core is the server's). */
export async function runWrk(base: string, load: WrkLoad, pace: { connections: number; seconds: number }): Promise<{ reqPerSec: number; p99: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'vpn-bench-wrk-'));
  try {
    const file = join(dir, 'load.lua');
    writeFileSync(file, script(load));
    const headers = Object.entries(load.headers ?? {}).flatMap(([key, value]) => ['-H', `${key}: ${value}`]);
    // wrk takes whole seconds (a `--quick` half second is one).
    const seconds = Math.max(1, Math.round(pace.seconds));
    const { stdout } = await exec('wrk', ['-t1', `-c${pace.connections}`, `-d${seconds}s`, '--latency', '-s', file, ...headers, `${base}${load.path}`], {
      maxBuffer: 1 << 20,
    });
    const parsed = parseWrk(stdout);
    // Timeouts are slow answers (the rate shows them); refused or reset connections are a broken server.
    const broken = parsed.errors && /(connect|read|write) [1-9]/.test(parsed.errors);
    if (!(parsed.wrong === 0) || broken || !Number.isFinite(parsed.reqPerSec)) {
      throw new Error(
        `${load.name}: ${parsed.wrong} answers with another status than ${load.status ?? 200}${parsed.errors ? `, socket errors ${parsed.errors}` : ''}`,
      );
    }
    return { reqPerSec: parsed.reqPerSec, p99: parsed.p99 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
