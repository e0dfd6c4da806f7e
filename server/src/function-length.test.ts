import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = new URL('../..', import.meta.url).pathname;
const LIMIT = 150;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

function nameOf(node: ts.FunctionLikeDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) return parent.name.getText();
  return '(anonymous)';
}

/** Every function (declaration, expression, arrow, method) of server/src longer than the limit, by file and name. */
function longFunctions(files: { path: string; text: string }[]): Record<string, number> {
  const found: Record<string, number> = {};
  for (const { path: file, text } of files) {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node)) {
        const lines = source.getLineAndCharacterOfPosition(node.getEnd()).line - source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        if (lines > LIMIT) found[`${relative(ROOT, file)} ${nameOf(node)}`] = lines;
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

describe(`functions in server/src (migrations aside) stay within ${LIMIT} lines`, () => {
  it('none is longer: a long one is split into use cases (functions taking their dependencies first)', () => {
    const files = sources(join(ROOT, 'server/src')).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
    expect(files.length).toBeGreaterThan(300);
    expect(longFunctions(files)).toEqual({});
  });

  it('finds a long function wherever it is: a factory closure, an inner arrow, a method', () => {
    const body = (lines: number) => Array.from({ length: lines }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const text = [
      `export function createThing() {\n${body(LIMIT - 1)}\n}`,
      `export const helper = () => {\n${body(LIMIT - 2)}\n};`,
      `class Repo {\n  read() {\n${body(LIMIT)}\n  }\n}`,
      `export function fits() {\n${body(LIMIT - 2)}\n}`,
    ].join('\n');
    const found = longFunctions([{ path: join(ROOT, 'server/src/x.ts'), text }]);
    expect(found).toEqual({ 'server/src/x.ts createThing': LIMIT + 1, 'server/src/x.ts read': LIMIT + 2 });
  });
});
