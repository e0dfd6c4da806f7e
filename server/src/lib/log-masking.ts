/**
 * What a log line must never carry, masked wherever it appears: subscription and payment-link tokens in paths,
 * sign-in codes, access and refresh tokens (JWTs and random tokens), e-mail addresses and payment keys. Used by the
 * logger (logger-options.ts) on every line at every level, and by scripts/check-log-secrets.ts to check a log.
 */

export const MASK = '[redacted]';

/** An e-mail address (what the sign-in takes, and more). */
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** A JWT: three base64url parts, the first a JSON header (`eyJ`). */
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g;
/** Payment providers' keys and secrets: Stripe's (sk_, rk_, pk_, whsec_), YooKassa's (live_/test_), and the like. */
const PROVIDER_KEY = /\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{8,}|\bwhsec_[A-Za-z0-9]{8,}|\b(?:live|test)_[A-Za-z0-9_-]{20,}/g;
/** A long run of token characters (random tokens: 32+ characters of base64url or hex); UUIDs are ids, kept. */
const LONG_SECRET = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])/g;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** A Telegram bot token (`123456:AA…`). */
const BOT_TOKEN = /\b\d{6,}:[A-Za-z0-9_-]{30,}/g;

/** What a secret looks like wherever it is, by kind (scripts/check-log-secrets.ts looks for the same). */
export const SECRET_PATTERNS: ReadonlyArray<{ kind: string; pattern: RegExp }> = [
  { kind: 'JWT', pattern: JWT },
  { kind: 'Telegram bot token', pattern: BOT_TOKEN },
  { kind: 'payment key', pattern: PROVIDER_KEY },
  { kind: 'e-mail address', pattern: EMAIL },
  { kind: 'long random token', pattern: LONG_SECRET },
];

/**
 * Whether the text may hold one of the secrets above: each has `@` (an e-mail address), `_` (payment keys; a long
 * token with one), `:` (a bot token), `eyJ` (a JWT) or 32 token characters in a row (a long token without `_`). Most
 * lines (`incoming request`, `request completed`) have none: a scan for a few characters instead of five replacements.
 */
const SECRET_MARK = /[@_:]/;
const TOKEN_RUN = /[A-Za-z0-9-]{32}/;
const mayHoldSecret = (text: string) => SECRET_MARK.test(text) || text.includes('eyJ') || (text.length >= 32 && TOKEN_RUN.test(text));

/** A match that is not a secret: a UUID is an id. */
export const isHarmless = (match: string) => UUID.test(match);

/** The text with every e-mail address, JWT, payment key and long random token in it masked. */
export function maskSecrets(text: string): string {
  if (text.length < 6 || !mayHoldSecret(text)) return text;
  let masked = text;
  for (const { pattern } of SECRET_PATTERNS) masked = masked.replace(pattern, (match) => (isHarmless(match) ? match : MASK));
  return masked;
}

/** Path segments whose next segment is a secret: `/sub/<token>`, `/pay/<token>` (any language prefix before). */
const SECRET_AFTER = new Set(['sub', 'pay']);
/** Query parameters whose value is a secret, whatever it looks like. */
const SECRET_PARAM = /token|code|e-?mail|key|secret|password|signature|sig$|^url$|^start/i;

/** A request URL fit for a log: the tokens of token-bearing paths and secret query values masked, then anything else secret. */
export function maskUrl(url: string): string {
  const at = url.indexOf('?');
  const path = at === -1 ? url : url.slice(0, at);
  const segments = path.split('/');
  for (let i = 1; i < segments.length; i += 1) {
    if (SECRET_AFTER.has(segments[i - 1]!) && segments[i] !== '') segments[i] = MASK;
  }
  const masked = maskSecrets(segments.join('/'));
  if (at === -1) return masked;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq === -1) return maskSecrets(pair);
      const name = pair.slice(0, eq);
      return `${name}=${SECRET_PARAM.test(safeDecode(name)) ? MASK : maskSecrets(safeDecode(pair.slice(eq + 1)))}`;
    })
    .join('&');
  return `${masked}?${query}`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** Field names whose value is a secret wherever they appear in a logged object. */
const SECRET_FIELD =
  /^(?:otp|token|accessToken|refreshToken|access_token|refresh_token|password|secret|secretKey|webhookSecret|apiKey|api_key|shopSecret|authorization|cookie|set-cookie|email)$/i;
/** `code` is a sign-in code when it is digits (an error's `code` is a word, kept). */
const isSecretField = (key: string, field: unknown) =>
  SECRET_FIELD.test(key) ? field !== null && field !== undefined && typeof field !== 'object' : key === 'code' && /^\d{4,10}$/.test(String(field));
const MAX_DEPTH = 6;

/**
 * A copy of a logged value with secret fields masked and every string masked (maskSecrets). Errors keep their
 * class for the logger's error serializer (their message and stack masked); values of depth past 6 (a cycle
 * included) are left out. Called on every line's object (logger-options.ts): what is not a plain object or array is decided before any copy.
 */
export function maskValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return depth >= MAX_DEPTH ? '[…]' : maskError(value);
  const array = Array.isArray(value);
  if (!array) {
    const prototype = Object.getPrototypeOf(value) as unknown;
    // A request, a reply, a Date, a Buffer: their serializers (or JSON) say what is logged.
    if (prototype !== Object.prototype && prototype !== null) return value;
  }
  // A cycle ends at the depth limit too.
  if (depth >= MAX_DEPTH) return '[…]';
  if (array) return value.map((item) => maskValue(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
    const field = (value as Record<string, unknown>)[key];
    copy[key] = isSecretField(key, field) ? MASK : maskValue(field, depth + 1);
  }
  return copy;
}

/** The error with its message and stack masked (the same object: its class and fields stay for the serializer). */
export function maskError<E extends Error>(err: E): E {
  const masked = Object.create(Object.getPrototypeOf(err) as object) as E;
  for (const key of Reflect.ownKeys(err)) {
    const descriptor = Object.getOwnPropertyDescriptor(err, key)!;
    if ('value' in descriptor && typeof descriptor.value === 'string') descriptor.value = maskSecrets(descriptor.value);
    else if ('value' in descriptor && descriptor.value instanceof Error && descriptor.value !== err) descriptor.value = maskError(descriptor.value);
    Object.defineProperty(masked, key, descriptor);
  }
  return masked;
}
