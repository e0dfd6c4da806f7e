import { afterAll, beforeAll } from 'vitest';
import { createTestDatabase, type TestDatabase, type TestDatabaseKind } from './databases.js';
import { startSmtpCatcher, type SmtpCatcher } from './smtp-catcher.js';

export interface TestEnvironment {
  database: TestDatabase;
  smtp: SmtpCatcher;
}

/**
 * For a test file: opens a fresh database of `kind` and a real SMTP server before its tests, and
 * closes both after. The fields are filled in by the time any test runs.
 */
export function useTestEnvironment(kind: TestDatabaseKind): TestEnvironment {
  const env = {} as TestEnvironment;
  beforeAll(async () => {
    env.database = await createTestDatabase(kind);
    env.smtp = await startSmtpCatcher();
  });
  afterAll(async () => {
    await env.smtp?.close();
    await env.database?.destroy();
  });
  return env;
}
