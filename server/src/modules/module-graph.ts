import type { DomainEvents } from '../domain-events.js';
import type { JobHandler } from '../jobs/worker.js';
import type { Listeners } from '../lib/event-bus.js';
import type { Route, ServerModule } from './module.js';

/** What the modules make together, once every one is built. */
export interface BuiltModules<Built> {
  services: Built;
  /** Every module's routes, in module order. */
  routes: Route[];
  /** What the job worker runs, by job type. */
  jobHandlers: Record<string, JobHandler>;
  /** The job types that run periodically (each with a handler). */
  periodicJobs: string[];
  /** Which module declared what (tests and the docs read it). */
  manifest: Array<{ name: string; provides: string[]; routes: number; jobs: string[]; periodicJobs: string[]; listensTo: string[] }>;
}

interface Added {
  module: ServerModule<never, object>;
  provides: string[];
}

/**
 * The server's modules, built in the order they are added: each `add` builds its module at once from what the
 * modules before it built (the compiler refuses a module whose `build` needs something not built yet), and
 * refuses a module that builds a name another one did. `finish` collects routes, job handlers and listeners,
 * and refuses a periodic job without a handler or a job type handled twice.
 */
export class ModuleGraph<Built extends object> {
  private constructor(
    private readonly built: Built,
    private readonly added: Added[],
    private readonly subscribe: (listeners: Listeners<DomainEvents>) => void,
  ) {}

  static start<Core extends object>(core: Core, subscribe: (listeners: Listeners<DomainEvents>) => void): ModuleGraph<Core> {
    return new ModuleGraph(core, [], subscribe);
  }

  add<Provides extends object>(module: ServerModule<Built, Provides>): ModuleGraph<Built & Provides> {
    const provided = module.build(this.built);
    const names = Object.keys(provided);
    const taken = names.filter((name) => name in this.built);
    if (taken.length > 0) throw new Error(`module ${module.name} builds ${taken.join(', ')}, which an earlier module built`);
    const built = Object.assign<Built, Provides>(this.built, provided);
    return new ModuleGraph(built, [...this.added, { module: module as unknown as ServerModule<never, object>, provides: names }], this.subscribe);
  }

  /** `periodicJobs` is the core's list: it is filled with every module's before any `jobs` is read. */
  finish(periodicJobs: string[]): BuiltModules<Built> {
    const deps = this.built as never;
    periodicJobs.push(...this.added.flatMap(({ module }) => module.periodicJobs ?? []));
    const result: BuiltModules<Built> = { services: this.built, routes: [], jobHandlers: {}, periodicJobs, manifest: [] };
    for (const { module, provides } of this.added) {
      const routes = module.routes?.(deps) ?? [];
      const handlers = module.jobs?.(deps) ?? {};
      const periodic = module.periodicJobs ?? [];
      for (const type of Object.keys(handlers)) {
        if (type in result.jobHandlers) throw new Error(`module ${module.name} handles job ${type}, which another module handles`);
      }
      const unhandled = periodic.filter((type) => !(type in handlers));
      if (unhandled.length > 0) throw new Error(`module ${module.name} runs ${unhandled.join(', ')} periodically without a handler for it`);
      const listeners = module.listeners?.(deps) ?? {};
      this.subscribe(listeners);
      result.routes.push(...routes);
      Object.assign(result.jobHandlers, handlers);
      result.manifest.push({
        name: module.name,
        provides,
        routes: routes.length,
        jobs: Object.keys(handlers),
        periodicJobs: [...periodic],
        listensTo: Object.keys(listeners),
      });
    }
    return result;
  }
}
