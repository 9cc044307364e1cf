// `npm run package [-- --target <platform>] [-- --this-node]`: builds (with the SQLite module for every
// supported Node), then packs the extension into out/svc-<version>.vsix with @vscode/vsce
// 3.9 (4.x needs Node 22). vsce is not a dependency of the package: it is installed with
// code-server into the git-ignored .code-server/ by scripts/installCodeServer.sh (or
// taken from PATH). better-sqlite3 is native and is built where it runs, so the .vsix is
// a platform-specific one (`vsce package --target`) for this machine's platform; another
// platform's .vsix is packed by a job on that platform (docs/decisions.md).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { distBinaryPath, runningNode } from './buildNative.mjs';
import { supported } from './registryNode.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
// `npm run package` packs out/svc-<version>.vsix for this machine; with an explicit
// --target (the release's jobs) the file is named for its platform, as vsce names one:
// out/svc-<target>-<version>.vsix, so the five packages of a release sit side by side.
const explicitTarget = process.argv.includes('--target');
// --this-node (`npm run demo:ui`): the running Node's SQLite module is the one that must be
// there, so nothing is built for the other Nodes (~75 s each on a first run); a .vsix for
// other people (a release, the e2e run) carries every supported Node's.
const thisNode = process.argv.includes('--this-node');

function vscePath() {
  const local = path.join(root, '.code-server', 'node_modules', '.bin', 'vsce');
  if (fs.existsSync(local)) return local;
  const which = spawnSync('sh', ['-c', 'command -v vsce'], { encoding: 'utf8' });
  if (which.status === 0) return which.stdout.trim();
  // First package on this machine: install vsce into the git-ignored .code-server/.
  console.log('== installing @vscode/vsce 3.9.1 into .code-server/ (once)');
  const dir = path.join(root, '.code-server');
  fs.mkdirSync(dir, { recursive: true });
  if (!fs.existsSync(path.join(dir, 'package.json')))
    fs.writeFileSync(path.join(dir, 'package.json'), '{ "name": "svc-e2e-tools", "private": true }\n');
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', dir, '@vscode/vsce@3.9.1'], {
    stdio: 'inherit',
    env: { ...process.env, npm_config_yes: 'true' },
  });
  if (r.status !== 0 || !fs.existsSync(local)) {
    console.error('could not install @vscode/vsce; run scripts/installCodeServer.sh');
    process.exit(1);
  }
  return local;
}

/** vsce's name for this machine's platform (alpine for musl Linux, armhf for 32-bit arm). */
function hostTarget() {
  const musl = process.platform === 'linux' && !process.report?.getReport().header.glibcVersionRuntime;
  const os = musl ? 'alpine' : process.platform;
  return `${os}-${process.arch === 'arm' ? 'armhf' : process.arch}`;
}

const targetAt = process.argv.indexOf('--target');
const target = targetAt > 0 ? process.argv[targetAt + 1] : hostTarget();
if (target !== hostTarget()) {
  console.error(
    `cannot pack for ${target} on ${hostTarget()}: better-sqlite3 is native and builds only for the platform it runs on; run \`npm run package -- --target ${target}\` on a ${target} machine (docs/decisions.md)`,
  );
  process.exit(1);
}
const out = path.join(
  root,
  'out',
  explicitTarget ? `${pkg.name}-${target}-${pkg.version}.vsix` : `${pkg.name}-${pkg.version}.vsix`,
);
const vsce = vscePath();
if (!process.argv.includes('--no-build')) {
  const b = spawnSync(
    process.execPath,
    [path.join(root, 'scripts', 'build.mjs'), ...(thisNode ? [] : ['--every-node'])],
    {
      stdio: 'inherit',
      cwd: root,
    },
  );
  if (b.status !== 0) process.exit(b.status ?? 1);
}
const here = runningNode();
if (thisNode && !here) {
  console.error(
    `--this-node: Node ${process.versions.node} is not one svc supports (${supported.node.map((n) => n.major).join(', ')})`,
  );
  process.exit(1);
}
// Every supported Node must find its binary in the package (shared/node/nativeBinding.ts).
const inDist = (n) => fs.existsSync(path.join(root, 'dist', distBinaryPath(n.abi)));
const missing = (thisNode ? [here] : supported.node).filter((n) => !inDist(n));
if (missing.length) {
  console.error(
    `dist/native/ has no SQLite module for Node ${missing.map((n) => n.major).join(', ')} on ${process.platform}-${process.arch}: run npm run build${thisNode ? '' : ' -- --every-node'}`,
  );
  process.exit(1);
}
fs.mkdirSync(path.dirname(out), { recursive: true });
const started = Date.now();
// package.json names the repository, so vsce turns the README's relative links and images
// (docs/screenshots/…) into absolute ones, which the Marketplace page needs.
const r = spawnSync(vsce, ['package', '--target', target, '--out', out], {
  stdio: ['ignore', 'inherit', 'inherit'],
  cwd: root,
});
if (r.status !== 0) process.exit(r.status ?? 1);
console.log(
  `packaged ${path.relative(root, out)} for ${target} (SQLite module for Node ${supported.node
    .filter(inDist)
    .map((n) => n.major)
    .join(', ')}) in ${Date.now() - started} ms`,
);
