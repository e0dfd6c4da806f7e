import { describe, expect, it } from 'vitest';
import { createEventBus } from './event-bus.js';

interface Events {
  'thing.changed': { id: string };
  'other.happened': { n: number };
}

describe('event bus', () => {
  it('runs the listeners of an event in the order they were added, each awaited before the next', async () => {
    const bus = createEventBus<Events>();
    const seen: string[] = [];
    bus.on('thing.changed', async ({ id }) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      seen.push(`first ${id}`);
    });
    bus.on('thing.changed', ({ id }) => {
      seen.push(`second ${id}`);
    });
    bus.on('other.happened', () => {
      seen.push('other');
    });
    await bus.emit('thing.changed', { id: 'a' });
    expect(seen).toEqual(['first a', 'second a']);
  });

  it('an event nobody listens to resolves; a removed listener is not called', async () => {
    const bus = createEventBus<Events>();
    const seen: number[] = [];
    const off = bus.on('other.happened', ({ n }) => {
      seen.push(n);
    });
    await bus.emit('thing.changed', { id: 'nobody' });
    await bus.emit('other.happened', { n: 1 });
    off();
    await bus.emit('other.happened', { n: 2 });
    expect(seen).toEqual([1]);
  });

  it('a listener that throws stops the rest and the error reaches the caller', async () => {
    const bus = createEventBus<Events>();
    const seen: string[] = [];
    bus.on('thing.changed', () => {
      throw new Error('refused');
    });
    bus.on('thing.changed', () => {
      seen.push('after');
    });
    await expect(bus.emit('thing.changed', { id: 'x' })).rejects.toThrow('refused');
    expect(seen).toEqual([]);
  });
});

describe('event bus: tell', () => {
  it('runs the listeners without waiting and hands a failure to onError', async () => {
    const failures: Array<[unknown, string]> = [];
    const bus = createEventBus<Events>({ onError: (err, name) => failures.push([err, String(name)]) });
    bus.on('thing.changed', async () => {
      await Promise.resolve();
      throw new Error('listener broke');
    });
    bus.tell('thing.changed', { id: 'x' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(failures.map(([err, name]) => [(err as Error).message, name])).toEqual([['listener broke', 'thing.changed']]);
  });
});
