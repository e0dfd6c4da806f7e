import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Keys derived from APP_SECRET, one per purpose, so no key is used for two things. */
export interface Keys {
  jwt: string;
  otp: Buffer;
  encryption: Buffer;
  /** Keys the hash a deleted customer's address leaves behind (users/erased-email.ts). */
  erasure: Buffer;
}

export function deriveKeys(appSecret: string): Keys {
  const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', appSecret, 'vpn-storefront', purpose, 32));
  return {
    jwt: derive('jwt-signing').toString('base64url'),
    otp: derive('otp-hashing'),
    encryption: derive('secret-encryption'),
    erasure: derive('erased-customers'),
  };
}

/** A string of `digits` decimal digits from a cryptographic RNG, leading zeros kept. */
export function randomDigits(digits: number): string {
  let out = '';
  for (let i = 0; i < digits; i += 1) out += String(randomInt(10));
  return out;
}

/** A URL-safe random token with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function hmacHex(key: Buffer, data: string): string {
  return createHmac('sha256', key).update(data).digest('hex');
}

/** Hash of a high-entropy token (refresh tokens): a plain digest is enough and lookups stay indexable. */
export function sha256Hex(data: string): string {
  return createHash('sha256').update(data).digest('hex');
}

export function safeEqualHex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** AES-256-GCM; output `v1.<iv>.<tag>.<ciphertext>` in base64url. For secrets admins enter. */
export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

export function decryptSecret(key: Buffer, sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined) throw new Error('Unrecognised encrypted value');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
