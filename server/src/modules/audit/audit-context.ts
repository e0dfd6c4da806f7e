import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The staff request an audit entry is written during (an admin's POST, PUT, PATCH or DELETE): entries written while
 * it runs mark it recorded, so the generic entry (admin-audit-hook.ts) is written only for a request whose service
 * wrote none, and an entry that does not say what changed is given the request's masked body as its `after`.
 */
export interface AuditRequestContext {
  /** `METHOD /api/admin/...` as the route is registered. */
  route: string;
  /** The request's body with its secrets masked (set once the body is read). */
  after?: unknown;
  recorded: boolean;
}

const storage = new AsyncLocalStorage<AuditRequestContext>();

/** Runs `next` (the rest of the request) inside `context`. */
export function runInAuditContext(context: AuditRequestContext, next: () => void): void {
  storage.run(context, next);
}

/** The staff request being served, if any. */
export function currentAuditContext(): AuditRequestContext | undefined {
  return storage.getStore();
}

/** Field names whose values are never stored: only that they changed. */
const SECRET_FIELD = /pass(word|phrase)?$|secret|token|api_?key|private_?key|^key$|credential|hmac|signing/i;

/**
 * A copy of `value` with every secret field's value replaced by `"changed"` (or `"cleared"` when emptied), at any
 * depth: an API key, a password or a token is never written to the audit log, only that it changed.
 */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 8) return '(nested)';
  if (Array.isArray(value)) return value.map((item) => maskSecrets(item, depth + 1));
  if (typeof value !== 'object' || value === null) return value;
  const masked: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (SECRET_FIELD.test(key)) masked[key] = field === null || field === '' ? 'cleared' : 'changed';
    else masked[key] = maskSecrets(field, depth + 1);
  }
  return masked;
}

/**
 * What a change changed, for an audit entry's details: the fields among `keys` whose value differs, as they were
 * (`before`) and as they are (`after`). Secrets are masked when the entry is written.
 */
export function changedFields(before: object, after: object, keys: readonly string[]): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const was = before as Record<string, unknown>;
  const is = after as Record<string, unknown>;
  const changed = keys.filter((key) => JSON.stringify(was[key]) !== JSON.stringify(is[key]));
  return { before: Object.fromEntries(changed.map((key) => [key, was[key] ?? null])), after: Object.fromEntries(changed.map((key) => [key, is[key] ?? null])) };
}
