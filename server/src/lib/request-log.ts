import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

/** The logger of the request being served (Fastify's child logger, with its `reqId`), wherever its work runs. */
const requestLogs = new AsyncLocalStorage<FastifyBaseLogger>();

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;
type LogArgs = Parameters<FastifyBaseLogger['info']>;

/** A logger whose every line goes to whichever logger `current()` names when the line is written. */
function forwardingLogger(current: () => FastifyBaseLogger, base: FastifyBaseLogger): FastifyBaseLogger {
  const forward = Object.fromEntries(LEVELS.map((level) => [level, (...args: LogArgs) => current()[level](...args)])) as Pick<
    FastifyBaseLogger,
    (typeof LEVELS)[number]
  >;
  return {
    ...forward,
    silent: () => undefined,
    get level() {
      return base.level;
    },
    set level(level) {
      base.level = level;
    },
    child: (bindings, options) => {
      // A service takes its child once, at start-up: made once per logger it lands on (the base, or one request's),
      // not again for every line it writes.
      const children = new WeakMap<FastifyBaseLogger, FastifyBaseLogger>();
      const childOf = (parent: FastifyBaseLogger) => {
        let child = children.get(parent);
        if (!child) children.set(parent, (child = parent.child(bindings, options)));
        return child;
      };
      return forwardingLogger(() => childOf(current()), base);
    },
  };
}

/**
 * The app's logger as services are given it: a line written while a request is served (in a service, a mail, work
 * the request started) goes to that request's logger and carries its `reqId`, like the request's own lines; any
 * other line (startup, the job worker, a timer of its own) goes to `base`. registerRequestLogs marks the requests.
 */
export function requestScopedLogger(base: FastifyBaseLogger): FastifyBaseLogger {
  return forwardingLogger(() => requestLogs.getStore() ?? base, base);
}

/**
 * Runs the rest of each request, from its first hook on, with its logger as the one requestScopedLogger writes to
 * (Fastify keeps the request's async context through body parsing, hooks and the handler).
 */
export function registerRequestLogs(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => requestLogs.run(request.log, done));
}
