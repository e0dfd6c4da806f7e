/**
 * Looks through a log for secrets the logger should have masked (docs/monitoring.md, Logs): e-mail addresses, JWTs,
 * payment keys, long random tokens, `/sub/` and `/pay/` tokens and sign-in codes. Prints each line that has one
 * (the secret itself cut short) and exits 1, else exits 0.
 *
 *   npx tsx scripts/check-log-secrets.ts server.log [more.log …]
 *   npm run test:unit 2>&1 | tee test-run.log; npx tsx scripts/check-log-secrets.ts test-run.log
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isHarmless, MASK, SECRET_PATTERNS } from '../server/src/lib/log-masking.js';

const escaped = MASK.replace(/[[\]]/g, '\\$&');
/** Beside what the logger masks everywhere: path tokens and a sign-in code logged as a field. */
const LOG_PATTERNS = [
  ...SECRET_PATTERNS,
  { kind: 'subscription or payment-link token', pattern: new RegExp(`/(?:sub|pay)/(?!${escaped})[^/\\s"?#]{8,}`, 'g') },
  { kind: 'sign-in code', pattern: /"(?:code|otp)"\s*:\s*"?\d{4,10}\b/g },
];

export interface Finding {
  line: number;
  kind: string;
  /** The start of what was found, never the whole secret. */
  excerpt: string;
}

/** Every secret-looking text in `log`, by line (1-based). */
export function findSecrets(log: string): Finding[] {
  const findings: Finding[] = [];
  log.split('\n').forEach((text, index) => {
    for (const { kind, pattern } of LOG_PATTERNS) {
      for (const match of text.matchAll(new RegExp(pattern.source, pattern.flags))) {
        if (!isHarmless(match[0])) findings.push({ line: index + 1, kind, excerpt: `${match[0].slice(0, 6)}…` });
      }
    }
  });
  return findings;
}

function main(files: string[]): number {
  if (files.length === 0) {
    process.stderr.write('usage: npx tsx scripts/check-log-secrets.ts <log file> [more …]\n');
    return 2;
  }
  let found = 0;
  for (const file of files) {
    for (const finding of findSecrets(readFileSync(file, 'utf8'))) {
      found += 1;
      process.stdout.write(`${file}:${finding.line}: ${finding.kind} (${finding.excerpt})\n`);
    }
  }
  process.stdout.write(found === 0 ? `no secrets found in ${files.join(', ')}\n` : `${found} secret(s) found\n`);
  return found === 0 ? 0 : 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.exit(main(process.argv.slice(2)));
