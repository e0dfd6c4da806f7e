import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCallback, type ScryptOptions } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { appendFile, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';

/**
 * One backup is one file (docs/backups.md):
 *
 *   line 1  `VPN-STOREFRONT-BACKUP 1`
 *   line 2  the header, JSON (BackupHeader): when, which database, the scrypt parameters and salt, and the app secret
 *           sealed with AES-256-GCM under the passphrase's key
 *   then    the database (a SQLite file or a `pg_dump --format=custom` archive) sealed with AES-256-GCM under the
 *           same key (its own IV; lines 1–2 are its additional data, so a changed header is refused too), and the
 *           16-byte GCM tag last
 *
 * Nothing in it is readable without the passphrase but the header's plain facts (time, kind, sizes).
 */
export const BACKUP_MAGIC = 'VPN-STOREFRONT-BACKUP 1';
const TAG_BYTES = 16;
/** The header is small; a file whose first lines are longer than this is not a backup. */
const MAX_HEADER_BYTES = 64 * 1024;
/** scrypt at N=2^15, r=8: about 32 MiB and a tenth of a second, once per backup or restore. */
const KDF = { N: 2 ** 15, r: 8, p: 1 } as const;

const HeaderSchema = z.object({
  createdAt: z.string(),
  appVersion: z.string(),
  database: z.enum(['sqlite', 'postgres']),
  payload: z.enum(['sqlite-file', 'pg_dump-custom']),
  payloadBytes: z.number().int().nonnegative(),
  kdf: z.object({ name: z.literal('scrypt'), salt: z.string(), N: z.number().int(), r: z.number().int(), p: z.number().int() }),
  secret: z.object({ iv: z.string(), tag: z.string(), data: z.string() }),
  payloadIv: z.string(),
});
export type BackupHeader = z.infer<typeof HeaderSchema>;

/** A refusal the command line prints as it is (wrong passphrase, not a backup, a damaged file). */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

function deriveKey(passphrase: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r + 16 * 1024 * 1024 };
  return new Promise((resolve, reject) => scryptCallback(passphrase.normalize('NFC'), salt, 32, options, (err, key) => (err ? reject(err) : resolve(key))));
}

const b64 = (buffer: Buffer) => buffer.toString('base64');
const unb64 = (text: string) => Buffer.from(text, 'base64');

/**
 * Writes the backup file `target` from the database copy at `payloadPath` and the app secret, both sealed under
 * `passphrase`. Written beside as `.partial` and renamed when complete, so a listed backup is always whole.
 */
export async function writeBackupFile(options: {
  target: string;
  payloadPath: string;
  secret: string;
  passphrase: string;
  facts: Pick<BackupHeader, 'createdAt' | 'appVersion' | 'database' | 'payload'>;
}): Promise<void> {
  const salt = randomBytes(16);
  const key = await deriveKey(options.passphrase, salt, KDF);
  const secretIv = randomBytes(12);
  const sealSecret = createCipheriv('aes-256-gcm', key, secretIv);
  const sealedSecret = Buffer.concat([sealSecret.update(options.secret, 'utf8'), sealSecret.final()]);
  const payloadIv = randomBytes(12);
  const header: BackupHeader = {
    ...options.facts,
    payloadBytes: (await stat(options.payloadPath)).size,
    kdf: { name: 'scrypt', salt: b64(salt), ...KDF },
    secret: { iv: b64(secretIv), tag: b64(sealSecret.getAuthTag()), data: b64(sealedSecret) },
    payloadIv: b64(payloadIv),
  };
  const head = Buffer.from(`${BACKUP_MAGIC}\n${JSON.stringify(header)}\n`, 'utf8');
  const partial = `${options.target}.partial`;
  try {
    await writeFile(partial, head, { mode: 0o600, flag: 'wx' });
    const cipher = createCipheriv('aes-256-gcm', key, payloadIv).setAAD(head);
    await pipeline(createReadStream(options.payloadPath), cipher, createWriteStream(partial, { flags: 'a' }));
    await appendFile(partial, cipher.getAuthTag());
    await rename(partial, options.target);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  }
}

/** The header of a backup file (its plain facts), or BackupError when the file is not one. */
export async function readBackupHeader(file: string): Promise<{ header: BackupHeader; headBytes: number; fileBytes: number }> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (err) {
    throw new BackupError(`Cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    const fileBytes = (await handle.stat()).size;
    const buffer = Buffer.alloc(Math.min(MAX_HEADER_BYTES, fileBytes));
    await handle.read(buffer, 0, buffer.length, 0);
    const first = buffer.indexOf(0x0a);
    const second = first < 0 ? -1 : buffer.indexOf(0x0a, first + 1);
    if (first < 0 || second < 0 || buffer.subarray(0, first).toString('utf8') !== BACKUP_MAGIC) {
      throw new BackupError(`${file} is not a backup made by npm run backup.`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(buffer.subarray(first + 1, second).toString('utf8'));
    } catch {
      throw new BackupError(`${file} is damaged: its header is not readable.`);
    }
    const header = HeaderSchema.safeParse(parsed);
    if (!header.success) throw new BackupError(`${file} is damaged or from a newer version: its header is not understood.`);
    const headBytes = second + 1;
    if (fileBytes !== headBytes + header.data.payloadBytes + TAG_BYTES) throw new BackupError(`${file} is incomplete or damaged (wrong size).`);
    return { header: header.data, headBytes, fileBytes };
  } finally {
    await handle.close();
  }
}

/**
 * Opens a backup with `passphrase`: the app secret, and the database written to `payloadTarget` (checked whole
 * before this returns; removed when it is not). A wrong passphrase is a BackupError before anything is written.
 */
export async function openBackupFile(file: string, passphrase: string, payloadTarget: string): Promise<{ header: BackupHeader; secret: string }> {
  const { header, headBytes, fileBytes } = await readBackupHeader(file);
  const key = await deriveKey(passphrase, unb64(header.kdf.salt), header.kdf);
  let secret: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, unb64(header.secret.iv));
    decipher.setAuthTag(unb64(header.secret.tag));
    secret = Buffer.concat([decipher.update(unb64(header.secret.data)), decipher.final()]).toString('utf8');
  } catch {
    throw new BackupError('Wrong passphrase: BACKUP_PASSPHRASE does not open this backup (nothing was restored).');
  }
  const handle = await open(file, 'r');
  const tag = Buffer.alloc(TAG_BYTES);
  const head = Buffer.alloc(headBytes);
  try {
    await handle.read(tag, 0, TAG_BYTES, fileBytes - TAG_BYTES);
    await handle.read(head, 0, headBytes, 0);
  } finally {
    await handle.close();
  }
  const decipher = createDecipheriv('aes-256-gcm', key, unb64(header.payloadIv)).setAAD(head);
  decipher.setAuthTag(tag);
  try {
    const source = createReadStream(file, { start: headBytes, end: fileBytes - TAG_BYTES - 1 });
    // An empty range still reads nothing (start > end), as it should for a zero-byte payload.
    await pipeline(source, decipher, createWriteStream(payloadTarget, { mode: 0o600, flags: 'wx' }));
  } catch (err) {
    await rm(payloadTarget, { force: true });
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw err;
    throw new BackupError(`${file} is damaged: its database does not match its seal (nothing was restored).`);
  }
  return { header, secret };
}
