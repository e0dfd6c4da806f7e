import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Keeps the documentation honest cheaply: a page moved or renamed, or a heading reworded, leaves a
 * link pointing nowhere, and this fails on it. The README is what a newcomer reads first, so it also
 * has a length budget: detail belongs in docs/.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const README_MAX_LINES = 150;

const docsPages = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => join(ROOT, 'docs', name));
const pages = [join(ROOT, 'README.md'), ...docsPages];

/** The text outside fenced code blocks (a link or heading shown as code is not one). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2… */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = heading!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** Relative links of a page: `[text](target)` outside code, not to another site or a mail address. */
function relativeLinksOf(markdown: string): string[] {
  const links: string[] = [];
  for (const [, target] of prose(markdown).matchAll(/\[(?:[^\]\n]|`[^`\n]*`)*\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue;
    links.push(target!);
  }
  return links;
}

/** Why a link from `page` does not arrive, or null when it does. */
function brokenLink(page: string, target: string): string | null {
  const [path, anchor] = target.split('#', 2) as [string, string | undefined];
  const file = path === '' ? page : resolve(dirname(page), decodeURIComponent(path));
  if (!file.startsWith(ROOT)) return 'points outside the repository';
  if (!existsSync(file)) return `${relative(ROOT, file)} does not exist`;
  if (anchor === undefined || statSync(file).isDirectory()) return null;
  if (!file.endsWith('.md')) return 'an anchor into a file that is not Markdown';
  return anchorsOf(readFileSync(file, 'utf8')).has(decodeURIComponent(anchor)) ? null : `${relative(ROOT, file)} has no heading #${anchor}`;
}

describe('the documentation', () => {
  it.each(pages.map((page) => [relative(ROOT, page), page]))('every relative link in %s points to a file and heading that exist', (_name, page) => {
    const broken = relativeLinksOf(readFileSync(page, 'utf8'))
      .map((target) => ({ target, why: brokenLink(page, target) }))
      .filter((link) => link.why !== null);
    expect(broken).toEqual([]);
  });

  it(`the README stays short: at most ${README_MAX_LINES} lines (detail goes into docs/)`, () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it("the README's table of contents links every page of docs/", () => {
    const linked = new Set(relativeLinksOf(readFileSync(join(ROOT, 'README.md'), 'utf8')).map((target) => resolve(ROOT, target.split('#')[0]!)));
    expect(docsPages.filter((page) => !linked.has(page)).map((page) => relative(ROOT, page))).toEqual([]);
  });

  it('reads links and anchors as GitHub does (the checker itself)', () => {
    expect([
      ...anchorsOf("## The store's currency\n## Plans (Stripe Billing)\n## `npm run bench`\n## Plans (Stripe Billing)\n```\n# not a heading\n```"),
    ]).toEqual(['the-stores-currency', 'plans-stripe-billing', 'npm-run-bench', 'plans-stripe-billing-1']);
    expect(relativeLinksOf('[a](docs/a.md) [`b`](b.md#x) [c](https://example.com) [d](mailto:x@example.com)\n```\n[e](e.md)\n```')).toEqual([
      'docs/a.md',
      'b.md#x',
    ]);
    expect(brokenLink(join(ROOT, 'README.md'), 'docs/no-such-page.md')).toBe('docs/no-such-page.md does not exist');
    expect(brokenLink(join(ROOT, 'docs', 'payments.md'), '#no-such-heading')).toBe('docs/payments.md has no heading #no-such-heading');
    expect(brokenLink(join(ROOT, 'docs', 'payments.md'), '#refunds-and-disputes')).toBeNull();
  });
});
