/** Says plainly, once per run, which databases the suite covers. */
export default function setup(): void {
  if (process.env.TEST_DATABASE_URL) {
    process.stdout.write('Database tests run on SQLite and on PostgreSQL (TEST_DATABASE_URL).\n');
  } else {
    process.stdout.write(
      '\n*** PostgreSQL tests SKIPPED: TEST_DATABASE_URL is not set. Database tests ran on SQLite only. ***\n' +
        '*** Set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test to run them (.ci/run always does). ***\n\n',
    );
  }
}
