// The in-host suite (test/e2e/inHost) in a desktop VS Code, with @vscode/test-electron.
// For people with internet: it downloads VS Code (into .vscode-test/, git-ignored) on first
// use. CI and offline machines run the same suite in code-server instead (`npm run
// test:e2e`, docs/e2e.md), because the desktop build cannot be downloaded there.
//
//   node .vscode-test.mjs                 # VS Code stable
//   SVC_VSCODE_VERSION=1.100.3 node .vscode-test.mjs   # the minimum we support
//
// Tests get their own SVC_HOME under .scratch/ (never ~/.svc); its daemon is stopped and the
// folder removed at the end (SVC_KEEP_SCRATCH=1 keeps it).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runTests } from '@vscode/test-electron';
import { bundleInHostTests } from './scripts/bundleInHostTests.mjs';

const root = path.dirname(new URL(import.meta.url).pathname);

const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const outDir = await bundleInHostTests(root);

const scratch = path.join(root, '.scratch', `vscode-test-${process.pid}`);
const svcHome = path.join(scratch, '.svc');
const workspace = path.join(scratch, 'workspace');
fs.mkdirSync(workspace, { recursive: true });
const results = path.join(scratch, 'results.json');

let code = 1;
try {
  code = await runTests({
    version: process.env.SVC_VSCODE_VERSION ?? 'stable',
    extensionDevelopmentPath: root,
    extensionTestsPath: path.join(outDir, 'index.js'),
    extensionTestsEnv: {
      SVC_HOME: svcHome,
      SVC_E2E_RESULTS: results,
      SVC_E2E_EXTENSION_DIR: root,
      SVC_E2E_RUNNER: 'desktop',
    },
    launchArgs: [
      workspace,
      '--disable-extensions',
      '--disable-workspace-trust',
      '--skip-welcome',
      '--skip-release-notes',
    ],
  });
} catch (e) {
  console.error(`in-host tests failed: ${e?.message ?? e}`);
} finally {
  spawnSync(process.execPath, [path.join(root, 'dist', 'svc.js'), 'daemon', 'stop'], {
    env: { ...process.env, SVC_HOME: svcHome },
    stdio: 'inherit',
  });
  if (fs.existsSync(results)) {
    const r = JSON.parse(fs.readFileSync(results, 'utf8'));
    console.log(`in-host: ${r.passes.length} passing, ${r.failures.length} failing`);
  }
  if (!process.env.SVC_KEEP_SCRATCH) fs.rmSync(scratch, { recursive: true, force: true });
}
process.exit(code);
