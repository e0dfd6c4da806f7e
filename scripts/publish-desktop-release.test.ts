import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { writeRelease } from '../server/test/desktop-release-fixture.js';
import { publishDesktopRelease } from './publish-desktop-release.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'publish-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('npm run desktop:publish', () => {
  it("copies a release the workflow built into the channel's folder, feeds included", async () => {
    const from = tempDir();
    const to = tempDir();
    const release = writeRelease(from, '1.2.0');
    writeFileSync(join(from, 'builder-debug.yml'), 'not a feed');
    writeFileSync(join(from, 'notes.txt'), 'not a release file');
    const result = await publishDesktopRelease({ from, to, channel: 'beta' });
    expect(result.feeds).toEqual(['latest-linux.yml', 'latest-mac.yml', 'latest.yml']);
    const published = readdirSync(join(to, 'beta')).sort();
    expect(published).toEqual([...result.files, ...result.feeds].sort());
    expect(published).not.toContain('notes.txt');
    expect(published).not.toContain('builder-debug.yml');
    expect(readFileSync(join(to, 'beta', release.windows.files[0]!.name)).equals(release.windows.files[0]!.bytes)).toBe(true);
    expect(existsSync(join(to, 'stable'))).toBe(false);
  });

  it('publishes nothing when a feed does not match its files', async () => {
    const from = tempDir();
    const to = tempDir();
    const release = writeRelease(from, '1.2.0');
    writeFileSync(join(from, release.linux.files[0]!.name), 'a different AppImage');
    await expect(publishDesktopRelease({ from, to, channel: 'stable' })).rejects.toThrow(/is 20 bytes; latest-linux\.yml says 5120/);
    expect(readdirSync(to)).toEqual([]);
  });

  it('says what is wrong on the command line: no feed, no folder, an unknown channel', async () => {
    const run = (...args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/publish-desktop-release.ts'), ...args], { cwd: ROOT }).then(
        () => '',
        (error: { stderr: string }) => error.stderr.trim(),
      );
    expect(await run(tempDir(), '--to', tempDir())).toMatch(/has no update feed/);
    expect(await run()).toMatch(/^Usage: npm run desktop:publish/);
    expect(await run(tempDir(), '--channel', 'nightly')).toBe('--channel must be one of stable, beta');
  });
});
