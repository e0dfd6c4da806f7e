import pino from 'pino';
import type { Config } from '../config.js';
import type { Db } from '../db/knex.js';
import { resolveAppSecret } from '../lib/app-secret.js';
import { systemClock } from '../lib/clock.js';
import { deriveKeys } from '../lib/crypto.js';
import { createMailer } from '../mail/mailer.js';
import { DEFAULT_RATE_LIMITS } from '../plugins/rate-limit.js';
import { createServices, type Services } from '../services.js';

/**
 * The server's modules built as the app builds them, without HTTP: a change made here is told to the running
 * instances as theirs are (a role granted forgets the user's cached sessions everywhere). `close()` ends the
 * connections they opened.
 */
export function createCliServices(config: Config, db: Db): Services & { close(): Promise<void> } {
  const log = pino({ level: 'warn' });
  const mailer = createMailer(config, log);
  const services = createServices({
    config,
    db,
    clock: systemClock,
    keys: deriveKeys(resolveAppSecret(config)),
    mailer,
    log,
    limits: DEFAULT_RATE_LIMITS,
    signAccessToken: () => {
      throw new Error('The command line signs nobody in.');
    },
  });
  return {
    ...services,
    async close() {
      await services.broadcast.close();
      mailer.close();
    },
  };
}
