import { describe, expect, it } from 'vitest';
import { latencyMs, parseWrk } from './wrk-load.js';

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
