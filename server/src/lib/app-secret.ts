import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config.js';

/** Where the generated secret is kept: `app-secret` in the data folder. */
export function appSecretFile(config: Pick<Config, 'dataDir'>): string {
  return join(resolve(config.dataDir), 'app-secret');
}

/** The secret the server would use, without making one: APP_SECRET, else the data folder's file, else null. */
export function readExistingAppSecret(config: Pick<Config, 'appSecret' | 'dataDir'>): string | null {
  if (config.appSecret) return config.appSecret;
  const file = appSecretFile(config);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

/**
 * APP_SECRET from the environment, or (outside production) one generated on first start and kept in
 * the data folder so sessions and encrypted secrets survive restarts.
 */
export function resolveAppSecret(config: Config): string {
  if (config.appSecret) return config.appSecret;
  if (config.env === 'production') throw new Error('APP_SECRET is required in production');
  const dir = resolve(config.dataDir);
  const file = join(dir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true, mode: 0o700 }); // a folder made here is the owner's only, like the secret
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return secret;
}
