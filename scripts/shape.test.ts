// The product's shape, held: no function in the product's TypeScript longer than 120 lines (a
// long one is split into its phases, as the runner's, the CLI's and the collector's were), and a
// case's identity written once (schema.ts CASE_IDENTITY, caseKey, codeKey). Tests and the lab
// are not the product. A function that grows past it, or a key written by hand, fails here.
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
    else if (/\.(ts|svelte)$/.test(name) && !/\.(test|spec|d)\.ts$/.test(name)) yield path;
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
    const long = PRODUCT.flatMap((root) => [...sources(root)].filter((f) => f.endsWith('.ts')).flatMap((f) => longFunctions(f, readFileSync(f, 'utf8'))));
    expect(long).toEqual([]);
  });

  it('finds a long function where there is one (the check itself)', () => {
    const body = Array.from({ length: 130 }, (_, i) => `  x += ${i};`).join('\n');
    expect(longFunctions('a.ts', `const f = () => {\n  let x = 0;\n${body}\n};\nfunction g() {}`)).toEqual(['a.ts:1 f (133 lines)']);
  });

  it('writes a case’s key, a code’s key and a place’s key only in schema.ts', () => {
    const byHand = PRODUCT.flatMap((root) =>
      [...sources(root)].filter((f) => f !== join('web', 'core', 'schema.ts') && handKeys(readFileSync(f, 'utf8')).length).map(String),
    );
    expect(byHand).toEqual([]);
    expect(handKeys('const id = `${r.algorithm}/${r.implementation}/${r.variant}/${r.operation}/${r.size_bytes}/${r.aad_bytes}`;')).toHaveLength(1);
    expect(handKeys('const k = `${v.implementation}/${v.variant}/${v.algorithm}`;')).toHaveLength(1);
    expect(handKeys('const at = `${c.algorithm}/${c.sizeBytes}/${c.aadBytes}`;')).toHaveLength(1);
    expect(handKeys('const series = `${c.implementation}/${c.variant}`; const g = `${c.operation}/${c.sizeBytes}/${c.aadBytes}`;')).toHaveLength(0);
  });
});

/**
 * Template literals that write a key by hand: the implementation, variant and algorithm together
 * (a code's key), or the algorithm with both sizes (a place's or a case's key).
 */
function handKeys(text: string): string[] {
  // Runs of `${x.field}` joined by '/': how a key is written (a label joins its fields by spaces).
  const runs = text.match(/\$\{\w+\.\w+\}(?:\/\$\{\w+\.\w+\})+/g) ?? [];
  return runs.filter((run) => {
    const has = (...fs: string[]) => fs.some((f) => run.includes(`.${f}}`));
    return (
      (has('implementation') && has('variant') && has('algorithm')) || (has('algorithm') && has('sizeBytes', 'size_bytes') && has('aadBytes', 'aad_bytes'))
    );
  });
}
