// `npm run test:e2e`: the extension in a real VS Code (code-server 4.100.3 + Debian
// chromium + playwright-core, docs/e2e.md). Packs the .vsix, bundles the in-host
// suite, then runs the UI suite (which also drives the in-host suite). Screenshots go to
// .scratch/e2e-screenshots/. Extra arguments go to mocha (e.g. --grep daemon).
// Needs: scripts/installCodeServer.sh once, and /usr/bin/chromium (scripts/ciE2e.sh does both).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bundleInHostTests } from './bundleInHostTests.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const started = Date.now();
const step = (name, since) => console.log(`== ${name}: ${Date.now() - since} ms`);

const codeServer = path.join(root, '.code-server', 'node_modules', '.bin', 'code-server');
const chromium = process.env.SVC_E2E_CHROMIUM ?? '/usr/bin/chromium';
const missing = [];
if (!fs.existsSync(codeServer)) missing.push('code-server (run scripts/installCodeServer.sh)');
if (!fs.existsSync(chromium)) missing.push(`${chromium} (apt-get install chromium)`);
if (missing.length) {
  console.error(`e2e prerequisites missing: ${missing.join('; ')}. scripts/ciE2e.sh installs everything.`);
  process.exit(1);
}

let t = Date.now();
const pack = spawnSync(process.execPath, [path.join(root, 'scripts', 'package.mjs')], { stdio: 'inherit', cwd: root });
if (pack.status !== 0) process.exit(pack.status ?? 1);
step('build + package', t);

t = Date.now();
await bundleInHostTests(root);
step('bundle in-host tests', t);

t = Date.now();
const mocha = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules', 'mocha', 'bin', 'mocha.js'),
    '--require',
    'tsx/cjs',
    '--require',
    'test/e2e/ui/session.ts',
    '--extension',
    'ts',
    '--timeout',
    '120000',
    '--reporter',
    'spec',
    'test/e2e/ui/views.e2e.test.ts',
    // Its own code-server on the demo's state (a scratch home); the shared one is untouched.
    'test/e2e/ui/demo.e2e.test.ts',
    // Before any suite makes an issue or a review: it checks what the palette hides then.
    'test/e2e/ui/palette.e2e.test.ts',
    // In-host before lanes: it checks an empty deck of the shared daemon.
    'test/e2e/ui/inHost.e2e.test.ts',
    // The gauntlet (test/e2e/ui/gauntletWorld.ts), in this order: a suite's tests start the
    // lanes the suites after it look at.
    'test/e2e/ui/deck.e2e.test.ts',
    'test/e2e/ui/conversation.e2e.test.ts',
    'test/e2e/ui/overviews.e2e.test.ts',
    'test/e2e/ui/reap.e2e.test.ts',
    'test/e2e/ui/themes.e2e.test.ts',
    'test/e2e/ui/skill.e2e.test.ts',
    'test/e2e/ui/runRecord.e2e.test.ts',
    'test/e2e/ui/issues.e2e.test.ts',
    'test/e2e/ui/startLane.e2e.test.ts',
    // Stops and restarts the shared daemon (and resumes the agents it stopped).
    'test/e2e/ui/daemon.e2e.test.ts',
    // Roles and the review runs replace SVC_HOME/config.yaml of the shared daemon: last. The
    // st world (test/e2e/ui/stateWorld.ts) between them, in this order (the reload test's
    // tabs and the polish test's rail follow from the ones before).
    'test/e2e/ui/roles.e2e.test.ts',
    'test/e2e/ui/previewTabs.e2e.test.ts',
    'test/e2e/ui/panelButtons.e2e.test.ts',
    'test/e2e/ui/reload.e2e.test.ts',
    'test/e2e/ui/polish.e2e.test.ts',
    'test/e2e/ui/reviewRuns.e2e.test.ts',
    // Replaces config.yaml too, and adds a project on the GitHub fake: after the review runs.
    'test/e2e/ui/actions.e2e.test.ts',
    // Adds its own project and lanes; nothing after it reads the whole deck.
    'test/e2e/ui/compareWithBase.e2e.test.ts',
    // Adds its own project and lane, rewrites the user settings, and counts every inbox item.
    'test/e2e/ui/inbox.e2e.test.ts',
    // The README's screenshots show the UI this run tested (the unit tier checks it too): a
    // screenshot older than the UI it shows fails the e2e run.
    'test/unit/readmeScreenshots.unit.test.ts',
    ...process.argv.slice(2),
  ],
  { stdio: 'inherit', cwd: root },
);
step('e2e suites', t);
step(`test:e2e total (exit ${mocha.status})`, started);
console.log(`screenshots: ${path.relative(root, path.join(root, '.scratch', 'e2e-screenshots'))}/`);
process.exit(mocha.status ?? 1);
