// The product's shape, held: no function in the product's TypeScript longer than 120 lines (a
// long one is split into its phases, as the runner's, the CLI's and the collector's were). Tests
// and the lab are not the product. A function that grows past it fails here, naming itself.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const PRODUCT = ['web', 'cli', 'collector', 'server'];
const MAX_LINES = 120;

function* sources(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'test') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sources(path);
    else if (/\.ts$/.test(name) && !/\.(test|spec|d)\.ts$/.test(name)) yield path;
  }
}

/** Every function of `text` (declarations, expressions, arrows, methods) longer than `max` lines, as `file:line name (n lines)`. */
export function longFunctions(file: string, text: string, max = MAX_LINES): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = src.getLineAndCharacterOfPosition(node.getStart(src)).line;
      const last = src.getLineAndCharacterOfPosition(node.getEnd()).line;
      const name = node.name?.getText(src) ?? (ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(src) : '(anonymous)');
      if (last - first + 1 > max) out.push(`${file}:${first + 1} ${name} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
  return out;
}

describe('the product’s shape', () => {
  it(`has no function over ${MAX_LINES} lines`, () => {
    const long = PRODUCT.flatMap((root) => [...sources(root)].flatMap((f) => longFunctions(f, readFileSync(f, 'utf8'))));
    expect(long).toEqual([]);
  });

  it('finds a long function where there is one (the check itself)', () => {
    const body = Array.from({ length: 130 }, (_, i) => `  x += ${i};`).join('\n');
    expect(longFunctions('a.ts', `const f = () => {\n  let x = 0;\n${body}\n};\nfunction g() {}`)).toEqual(['a.ts:1 f (133 lines)']);
  });
});
