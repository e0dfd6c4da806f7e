import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { latencyMs, parseBurst, parseWrk, runWrkBurst, wrkAvailable } from './wrk-load.js';

const REPORT = `Running 2s test @ http://127.0.0.1:3000/pricing
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     2.91ms  412.00us   9.80ms   88.10%
    Req/Sec    17.28k   512.31    18.01k    90.00%
  Latency Distribution
     50%    2.85ms
     75%    3.01ms
     90%    3.30ms
     99%    4.61ms
  34552 requests in 2.00s, 214.37MB read
  Socket errors: connect 0, read 0, write 0, timeout 3
Requests/sec:  17276.41
Transfer/sec:    107.18MB
WRONG_STATUS 0
`;

describe('reading wrk', () => {
  it('reads the rate, the p99 and the answers with another status', () => {
    expect(parseWrk(REPORT)).toEqual({ reqPerSec: 17276.41, p99: 4.61, wrong: 0, errors: 'connect 0, read 0, write 0, timeout 3' });
    expect(parseWrk(REPORT.replace('WRONG_STATUS 0', 'WRONG_STATUS 12')).wrong).toBe(12);
    expect(Number.isNaN(parseWrk('wrk: connection refused').reqPerSec)).toBe(true);
  });

  it('turns its latency units into milliseconds', () => {
    expect(latencyMs('712.00us')).toBeCloseTo(0.712);
    expect(latencyMs('1.23ms')).toBe(1.23);
    expect(latencyMs('2.00s')).toBe(2000);
    expect(latencyMs('1.00m')).toBe(60_000);
    expect(Number.isNaN(latencyMs('soon'))).toBe(true);
  });
});

describe('a burst of a set number of requests', () => {
  it('reads the line the burst script prints', () => {
    expect(parseBurst('BURST 2000 0.123456 0\n')).toEqual({ answers: 2000, seconds: 0.123456, wrong: 0 });
    expect(parseBurst('Running 60s test\nBURST 12 1.5 3\n')).toEqual({ answers: 12, seconds: 1.5, wrong: 3 });
    expect(parseBurst('Running 60s test @ http://127.0.0.1:1/\n')).toBeNull();
  });

  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  /** A server that counts the paths it is asked for, answering `status` to those under /bad. */
  async function countingServer(): Promise<{ base: string; asked: Map<string, number> }> {
    const asked = new Map<string, number>();
    server = createServer((req, res) => {
      asked.set(req.url!, (asked.get(req.url!) ?? 0) + 1);
      res.writeHead(req.url!.startsWith('/bad') ? 404 : 200, { 'content-type': 'text/plain' }).end('ok');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, asked };
  }

  // Skipped where wrk is not installed (the suite then loads with autocannon, tested elsewhere): it drives the wrk binary itself.
  it.skipIf(!wrkAvailable())('asks each path in turn until the amount is answered, and rates the burst by its own clock (needs wrk installed)', async () => {
    const { base, asked } = await countingServer();
    const started = performance.now();
    const rate = await runWrkBurst(base, { name: 'three paths', path: '/a', paths: ['/a', '/b', '/c'] }, 300, 10);
    const wall = (performance.now() - started) / 1000;

    // Every answer up to the amount counted; the connections still asking then add at most one each.
    const total = [...asked.values()].reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(300);
    expect(total).toBeLessThanOrEqual(310);
    expect([...asked.keys()].sort()).toEqual(['/a', '/b', '/c']);
    for (const count of asked.values()) expect(count).toBeGreaterThanOrEqual(99);
    // Not wrk's 60 s duration: the burst ended at its last answer, and its rate is 300 over that time.
    expect(wall).toBeLessThan(30);
    expect(rate.reqPerSec).toBeGreaterThan(300 / wall);
  });

  // Skipped where wrk is not installed (the suite then loads with autocannon, tested elsewhere): it drives the wrk binary itself.
  it.skipIf(!wrkAvailable())('fails a burst whose answers have another status than expected (needs wrk installed)', async () => {
    const { base } = await countingServer();
    await expect(runWrkBurst(base, { name: 'broken', path: '/bad' }, 50, 5)).rejects.toThrow(/broken: 50 of 50 answers with another status than 200/);
    await expect(runWrkBurst(base, { name: 'as told', path: '/bad', status: 404 }, 50, 5)).resolves.toMatchObject({ reqPerSec: expect.any(Number) });
  });
});
