// Fails when server/, shared/ or webview/ import `vscode`, or webview/ imports a Node
// built-in. The boundaries of ../shared/STYLE.md §1, enforced rather than reviewed.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { builtinModules } from 'node:module';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const importRe = /(?:\bimport\s[^'"]*?from\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|\bimport\s+|\bexport\s[^'"]*?from\s*)['"]([^'"]+)['"]/g;

function files(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p) : /\.(ts|tsx|mts|js|mjs)$/.test(e.name) ? [p] : [];
  });
}

const problems = [];
for (const area of ['server', 'shared', 'webview']) {
  for (const f of files(path.join(root, area))) {
    const text = fs.readFileSync(f, 'utf8');
    for (const m of text.matchAll(importRe)) {
      const spec = m[1];
      const rel = path.relative(root, f);
      if (spec === 'vscode') problems.push(`${rel}: imports 'vscode' (only extension/ may)`);
      if (area === 'webview' && (builtins.has(spec) || spec.startsWith('node:'))) problems.push(`${rel}: imports Node built-in '${spec}' (webviews run in a browser)`);
    }
  }
}
if (problems.length) {
  console.error('boundary lint failed:\n' + problems.map((p) => '  ' + p).join('\n'));
  process.exit(1);
}
console.log('boundary lint: ok');
