import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../test/databases.js';
import { useTestEnvironment } from '../../test/environment.js';
import { buildTestApp, type TestApp } from '../../test/test-app.js';
import type { DomainEvents } from '../domain-events.js';
import { createEventBus, listen } from '../lib/event-bus.js';
import { defineModule, route } from './module.js';
import { ModuleGraph } from './module-graph.js';

const noListeners = () => {};
const handler = async () => {};

const counter = defineModule({
  name: 'counter',
  build: ({ start }: { start: number }) => ({ count: start + 1 }),
});
const doubled = defineModule({
  name: 'doubled',
  build: ({ count }: { count: number }) => ({ doubled: count * 2 }),
  routes: ({ doubled: value }) => [
    route(
      async (app, options: { value: number }) => {
        app.get('/value', async () => options.value);
      },
      { value },
    ),
  ],
  jobs: () => ({ tick: handler }),
  periodicJobs: ['tick'],
});

describe('module graph', () => {
  it('builds each module from what the modules before it built, and collects routes, jobs and periodic jobs', () => {
    const periodic: string[] = [];
    const built = ModuleGraph.start({ start: 1 }, noListeners).add(counter).add(doubled).finish(periodic);
    expect(built.services).toMatchObject({ start: 1, count: 2, doubled: 4 });
    expect(built.routes).toHaveLength(1);
    expect(Object.keys(built.jobHandlers)).toEqual(['tick']);
    expect(periodic).toEqual(['tick']);
    expect(built.manifest.map((entry) => [entry.name, entry.provides, entry.periodicJobs])).toEqual([
      ['counter', ['count'], []],
      ['doubled', ['doubled'], ['tick']],
    ]);
  });

  it('the compiler refuses a module whose build needs something not built yet', () => {
    // @ts-expect-error `doubled` needs `count`, which only `counter` builds.
    expect(() => ModuleGraph.start({ start: 1 }, noListeners).add(doubled)).not.toThrow();
  });

  it('refuses a module that builds a name an earlier module built', () => {
    const again = defineModule({ name: 'again', build: () => ({ count: 0 }) });
    expect(() => ModuleGraph.start({ start: 1 }, noListeners).add(counter).add(again)).toThrow('module again builds count, which an earlier module built');
  });

  it('refuses a periodic job without a handler, and a job type two modules handle', () => {
    const unhandled = defineModule({ name: 'unhandled', build: () => ({}), periodicJobs: ['orphan'] });
    expect(() => ModuleGraph.start({}, noListeners).add(unhandled).finish([])).toThrow('module unhandled runs orphan periodically without a handler for it');
    const first = defineModule({ name: 'first', build: () => ({}), jobs: () => ({ shared: handler }) });
    const second = defineModule({ name: 'second', build: () => ({ other: true }), jobs: () => ({ shared: handler }) });
    expect(() => ModuleGraph.start({}, noListeners).add(first).add(second).finish([])).toThrow(
      'module second handles job shared, which another module handles',
    );
  });

  it('subscribes each module’s listeners once every module is built, in module order', async () => {
    const events = createEventBus<DomainEvents>();
    const heard: string[] = [];
    const listening = (name: string) =>
      defineModule({
        name,
        build: () => ({ [name]: true }),
        listeners: () => ({
          'user.changed': ({ userId }) => {
            heard.push(`${name} ${userId}`);
          },
        }),
      });
    ModuleGraph.start({}, (listeners) => listen(events, listeners))
      .add(listening('a'))
      .add(listening('b'))
      .finish([]);
    await events.emit('user.changed', { userId: 'u1' });
    expect(heard).toEqual(['a u1', 'b u1']);
  });
});

describe.each(TEST_DATABASES)('the server’s modules (%s)', (kind) => {
  const env = useTestEnvironment(kind);
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ db: env.database.db, smtp: env.smtp });
  });
  afterAll(async () => {
    await t.app.close();
  });

  it('every periodic job has a handler and one queued row; every job the worker runs is declared by one module', async () => {
    const { manifest, jobHandlers } = t.app.services;
    const periodic = manifest.flatMap((entry) => entry.periodicJobs);
    expect(periodic.length).toBeGreaterThanOrEqual(11);
    for (const type of periodic) expect(jobHandlers[type], type).toBeTypeOf('function');
    expect(manifest.flatMap((entry) => entry.jobs).sort()).toEqual(Object.keys(jobHandlers).sort());
    await t.app.services.scheduleRecurringJobs();
    await t.app.services.scheduleRecurringJobs();
    const rows = await env.database.db('jobs').whereIn('type', periodic).select('type', 'dedupe_key');
    expect(rows.map((row) => row.type).sort()).toEqual([...periodic].sort());
    for (const row of rows) expect(row.dedupe_key).toBe(row.type);
  });

  it('each module is built once, in the list’s order, and its routes are registered', () => {
    const names = t.app.services.manifest.map((entry) => entry.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.slice(0, 2)).toEqual(['platform', 'records']);
    expect(t.app.services.routes.length).toBe(t.app.services.manifest.reduce((sum, entry) => sum + entry.routes, 0));
    expect(t.app.hasRoute({ method: 'GET', url: '/api/health' })).toBe(true);
    expect(t.app.hasRoute({ method: 'POST', url: '/api/gift-codes/redeem' })).toBe(true);
  });
});
