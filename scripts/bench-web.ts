/**
 * `npm run bench:web`: Lighthouse (mobile emulation, default throttling) with the system Chromium on
 * the landing page, /pricing and a download page, served by the real app from the built site.
 * Prints the performance score, LCP and the JavaScript transferred; targets: score >= 95, landing
 * JavaScript <= 90 KB gzip. Build first (`npm run build:web`).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { createDb } from '../server/src/db/knex.js';
import { migrateToLatest } from '../server/src/db/migrate.js';

const PAGES = ['/', '/pricing', '/download/windows'];
const TARGET_SCORE = 95;
const TARGET_LANDING_JS_KB = 90;
const CHROME_FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

const RUNS_PER_PAGE = 3;

interface Run {
  score: number;
  lcp: number;
  jsKb: number;
}

interface NetworkItem {
  resourceType?: string;
  transferSize?: number;
}

/** One Lighthouse run; a run that could not measure (an error, no LCP) counts as score 0. */
async function measure(url: string, port: number): Promise<Run> {
  const result = await lighthouse(url, { port, onlyCategories: ['performance'], output: 'json', logLevel: 'error' });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) console.log(`  ${url}: Lighthouse error ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
  const items = (lhr.audits['network-requests']?.details as { items?: NetworkItem[] } | undefined)?.items ?? [];
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    jsKb: items.filter((i) => i.resourceType === 'Script').reduce((sum, i) => sum + (i.transferSize ?? 0), 0) / 1024,
  };
}

/** The run with the median score (Lighthouse varies from run to run). */
function median(runs: Run[]): Run {
  return [...runs].sort((a, b) => a.score - b.score)[Math.floor(runs.length / 2)]!;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vpn-bench-web-'));
  const db = createDb(`sqlite:${join(dir, 'app.db')}`);
  await migrateToLatest(db);
  const config = loadConfig({ NODE_ENV: 'test', APP_SECRET: 'bench-web-secret-bench-web-secret-0000', LOG_LEVEL: 'warn' });
  const app = await buildApp({ config, db, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });

  let failed = false;
  try {
    console.log(`Lighthouse, mobile emulation with simulated slow 4G; median of ${RUNS_PER_PAGE} runs per page`);
    console.log('page                 score   LCP (ms)   JS transferred (KB)');
    for (const path of PAGES) {
      const runs: Run[] = [];
      for (let i = 0; i < RUNS_PER_PAGE; i += 1) runs.push(await measure(`${base}${path}`, chrome.port));
      const { score, lcp, jsKb } = median(runs);
      console.log(`${path.padEnd(20)} ${String(score).padStart(5)}   ${lcp.toFixed(0).padStart(8)}   ${jsKb.toFixed(1).padStart(19)}`);
      if (score < TARGET_SCORE) failed = true;
      if (path === '/' && jsKb > TARGET_LANDING_JS_KB) failed = true;
    }
    console.log(`targets: score >= ${TARGET_SCORE} on every page; landing JavaScript <= ${TARGET_LANDING_JS_KB} KB`);
  } finally {
    chrome.kill();
    await app.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  }
  if (failed) {
    console.log('a target was missed');
    process.exitCode = 1;
  }
}

await main();
