// Bundles the in-host test suite (test/e2e/inHost) into out/test/e2e/inHost, with
// vscode and mocha external: run by scripts/e2e.mjs (code-server) and .vscode-test.mjs
// (@vscode/test-electron). Returns the folder of the bundles.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';

export async function bundleInHostTests(root) {
  const inHostDir = path.join(root, 'test', 'e2e', 'inHost');
  const outDir = path.join(root, 'out', 'test', 'e2e', 'inHost');
  fs.rmSync(outDir, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: fs
      .readdirSync(inHostDir)
      .filter((f) => f === 'index.ts' || f.endsWith('.inhost.test.ts'))
      .map((f) => path.join(inHostDir, f)),
    outdir: outDir,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'inline',
    external: ['vscode', 'mocha'],
    logLevel: 'warning',
  });
  return outDir;
}
