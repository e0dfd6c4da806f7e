// Sums the vitest and Playwright JSON reports into the one line CI reads: "N passed, N failed, N skipped".
// A missing report (its runner never ran because an earlier step failed) counts as one failure when
// the test command failed, so a red run never prints "0 failed".
import { existsSync, readFileSync } from 'node:fs';

const [vitestPath, playwrightPath, statusArg = '0'] = process.argv.slice(2);
const status = Number(statusArg);
let passed = 0;
let failed = 0;
let skipped = 0;

const read = (path) => (path && existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined);

const vitest = read(vitestPath);
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + vitest.numTodoTests;
  if (vitest.numFailedTestSuites > 0 && vitest.numFailedTests === 0) failed += vitest.numFailedTestSuites;
  console.log(`vitest: ${vitest.numPassedTests} passed, ${vitest.numFailedTests} failed, ${vitest.numPendingTests} skipped`);
} else {
  console.log('vitest: no report (it did not run)');
}

const playwright = read(playwrightPath);
if (playwright) {
  const s = playwright.stats;
  passed += s.expected + s.flaky;
  failed += s.unexpected;
  skipped += s.skipped;
  console.log(`playwright: ${s.expected} passed, ${s.unexpected} failed, ${s.skipped} skipped, ${s.flaky} flaky`);
} else {
  console.log('playwright: no report (it did not run)');
}

if (status !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
