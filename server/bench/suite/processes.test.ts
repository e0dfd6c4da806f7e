import { describe, expect, it } from 'vitest';
import { startFlags, startFlagsOf } from './processes.js';

describe('the server process the suite starts', () => {
  it('takes the node flags of the start script, none when it has none', () => {
    expect(startFlagsOf('npm run build && node --max-old-space-size=1024 --foo=bar dist/server/src/main.js')).toEqual([
      '--max-old-space-size=1024',
      '--foo=bar',
    ]);
    expect(startFlagsOf('npm run build && node dist/server/src/main.js')).toEqual([]);
    expect(() => startFlagsOf('tsx server/src/main.ts')).toThrow(/start script/);
  });

  // Without a ceiling, node on a large host lets the old space fill with garbage to ~4x its live size
  // between full collections (docs/performance.md, Memory): production and the suite both get it from `npm start`.
  it('runs the server with an old space of at most 1 GB, as npm start does', () => {
    const ceiling = startFlags().find((flag) => flag.startsWith('--max-old-space-size='));
    expect(Number(ceiling?.split('=')[1])).toBeLessThanOrEqual(1024);
  });
});
