// No two files import each other, directly or around a loop. ESLint's import-x/no-cycle
// skips `import type`, which TypeScript erases, but a type-only loop ties the files as
// tightly for a reader (neither can be understood, moved or split alone), so this reads
// every import and re-export, type-only ones included, with TypeScript's own pre-parser.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.resolve(__dirname, '..', '..');
/** The trees held to it. server/ joins once its last loop is gone (docs/decisions/codebase.md). */
const TREES = ['cli', 'extension', 'server', 'shared', 'webview'];

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The repository files a file imports (relative specifiers only; packages cannot import back). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  const out: string[] = [];
  for (const { fileName } of importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const base = path.resolve(path.dirname(file), fileName);
    const hit = [`${base}.ts`, path.join(base, 'index.ts'), base].find((c) => c.endsWith('.ts') && fs.existsSync(c));
    if (hit) out.push(hit);
  }
  return out;
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
function loops(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1 || graph.get(v)!.includes(v))
      found.push(component.map((f) => path.relative(ROOT, f)).sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('import cycles', () => {
  it('finds a loop, type-only imports included', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', ['/a.ts']],
    ]);
    assert.equal(loops(graph).length, 1);
    assert.deepEqual(
      loops(
        new Map([
          ['/a.ts', ['/b.ts']],
          ['/b.ts', []],
        ]),
      ),
      [],
    );
    const typeOnly = ts
      .preProcessFile("import type { X } from './x';\nexport type { Y } from './y';\n", true, true)
      .importedFiles.map((f) => f.fileName);
    assert.deepEqual(typeOnly, ['./x', './y']);
  });

  it(`no file of ${TREES.join(', ')} imports itself around a loop`, () => {
    const graph = new Map<string, string[]>();
    for (const tree of TREES) for (const f of sources(path.join(ROOT, tree))) graph.set(f, importsOf(f));
    assert.ok(graph.size > 100, `read ${graph.size} files`);
    // Files outside the trees (server/ from shared/, say) are leaves here: only loops within count.
    for (const [f, to] of graph)
      graph.set(
        f,
        to.filter((t) => graph.has(t)),
      );
    assert.deepEqual(
      loops(graph),
      [],
      'each list is a loop of imports: move what the files share into a file of its own',
    );
  });
});
