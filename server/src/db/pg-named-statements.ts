import { LruMap } from '../lib/lru-map.js';

/** The parts of a pg Client the named statements touch. */
export interface PgConnection {
  query(...args: unknown[]): unknown;
  getTransactionStatus?(): string | null;
}

interface QueryConfig {
  text: string;
  values: unknown[];
  name?: string;
  [option: string]: unknown;
}
type QueryCallback = (err: (Error & { code?: string; routine?: string }) | null, result?: unknown) => void;

export interface NamedStatementLimits {
  /** How often a SQL text must be run (on any connection) before it is prepared by name. */
  namedAfter: number;
  /** Named statements one connection may hold on the server; past it, queries run unnamed. */
  perConnection: number;
  /** How many SQL texts have their runs counted. */
  counted: number;
}

export const PG_NAMED_STATEMENT_LIMITS: NamedStatementLimits = { namedAfter: 3, perConnection: 200, counted: 2000 };

// Only plain DML is named; SET, BEGIN, DDL and the like run as before.
const NAMEABLE = /^\s*(select|insert|update|delete|with)\b/i;
// A statement that may change a table's columns: a cached plan whose result type changes fails in PostgreSQL.
const SCHEMA_CHANGE = /^\s*(alter|drop|create)\b/i;
/**
 * A pattern bound as a parameter: after a few runs PostgreSQL may keep a generic plan for a named statement,
 * and a generic plan cannot turn `LIKE $1` into an index range, so a prefix search would read the whole
 * index (measured: the admin's `q=ab` at 0.06 of a trivial route instead of about 0.3). Such SQL is planned
 * for its values every time.
 */
const PATTERN_MATCH = /\b(i?like)\b/i;

// Bumped by DDL from any database handle in this process (migrations, tests): every connection then
// forgets its names and prepares afresh. Names are never reused, so an old one cannot clash.
let schemaGeneration = 0;
let lastName = 0;

/**
 * Returns `install(conn)`, which makes `conn.query` (what knex's pg client calls for every query) run
 * repeated SQL as a named prepared statement, so PostgreSQL parses and plans it once per connection.
 * Only knex's callback form with bound values is touched; streams and plain strings pass through.
 * A statement whose plan the schema invalidated ("cached plan must not change result type", after a
 * migration in another process) is forgotten, and run again unnamed when it was not in a transaction.
 */
export function namedStatements(limits: NamedStatementLimits = PG_NAMED_STATEMENT_LIMITS) {
  const runs = new LruMap<string, number>(limits.counted);

  return function install(conn: PgConnection): void {
    const query = conn.query.bind(conn);
    const names = new Map<string, string>();
    let generation = schemaGeneration;
    let prepared = 0;

    const nameFor = (config: QueryConfig): string | undefined => {
      if (SCHEMA_CHANGE.test(config.text)) schemaGeneration++;
      if (config.name !== undefined || !NAMEABLE.test(config.text) || PATTERN_MATCH.test(config.text)) return undefined;
      // Without values pg uses the simple protocol, which is what lets `a; b` run: keep it for those.
      if (config.values.length === 0 && config.text.includes(';')) return undefined;
      if (generation !== schemaGeneration) {
        names.clear();
        generation = schemaGeneration;
      }
      const known = names.get(config.text);
      if (known) return known;
      const count = (runs.get(config.text) ?? 0) + 1;
      runs.set(config.text, count);
      if (count < limits.namedAfter || prepared >= limits.perConnection) return undefined;
      const name = `knex_${++lastName}`;
      names.set(config.text, name);
      prepared++;
      return name;
    };

    conn.query = (config: unknown, ...rest: unknown[]) => {
      const callback = rest[0];
      if (rest.length !== 1 || typeof callback !== 'function' || !isPlainQuery(config)) return query(config, ...rest);
      const name = nameFor(config);
      if (!name) return query(config, callback);
      return query({ ...config, name }, (err: Parameters<QueryCallback>[0], result: unknown) => {
        if (err && isStalePlan(err)) {
          names.delete(config.text);
          // The callback comes before PostgreSQL's ReadyForQuery, so the status is still the one the query ran in.
          if (conn.getTransactionStatus?.() === 'I') return query(config, callback);
        }
        (callback as QueryCallback)(err, result);
      });
    };
  };
}

function isPlainQuery(config: unknown): config is QueryConfig {
  if (typeof config !== 'object' || config === null) return false;
  const candidate = config as Partial<QueryConfig> & { submit?: unknown };
  return typeof candidate.text === 'string' && Array.isArray(candidate.values) && candidate.submit === undefined;
}

function isStalePlan(err: Error & { code?: string; routine?: string }): boolean {
  return err.code === '0A000' && (err.routine === 'RevalidateCachedQuery' || /cached plan must not change result type/.test(err.message));
}
