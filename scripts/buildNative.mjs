// better-sqlite3 is native: a binary loads only in the Node ABI it was built for
// (NODE_MODULE_VERSION). This builds it for the running Node (or, with --every-node, for
// every supported Node of shared/node/supportedNode.json) for this platform into the
// git-ignored .native/ cache,
// keyed by better-sqlite3 version, platform, arch and ABI; scripts/build.mjs copies the
// cache into dist/native/, where the daemon picks the one for the Node it runs on.
// Each build uses that Node from the npm registry (scripts/registryNode.mjs) as both the
// headers (--nodedir, and npm_config_nodedir: a machine's npm config may point nodedir at
// its system Node) and the interpreter of npm's own node-gyp. About 75 s of CPU each.
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import { installRegistryNode, root, supported } from './registryNode.mjs';

const require = createRequire(import.meta.url);
const bsqlDir = path.join(root, 'node_modules', 'better-sqlite3');
const bsqlVersion = JSON.parse(fs.readFileSync(path.join(bsqlDir, 'package.json'), 'utf8')).version;
export const nativeCache = path.join(root, '.native');

/** dist/-relative path of a binary, from the one pattern in supportedNode.json. */
export function distBinaryPath(abi, platform = process.platform, arch = process.arch) {
  return supported.binary.replace('{platform}', platform).replace('{arch}', arch).replace('{abi}', String(abi));
}

/** Bumped whenever how a binary is built changes, so older cached builds are not reused. */
const RECIPE = 2;

export function cachedBinary(abi, platform = process.platform, arch = process.arch) {
  return path.join(nativeCache, `better_sqlite3-${bsqlVersion}-r${RECIPE}-${platform}-${arch}-abi${abi}.node`);
}

/**
 * Node 24's `node::ObjectWrap` (header-only, compiled into the addon) registers an
 * environment cleanup hook per wrapped object and removes it in the destructor; in Node
 * 24.x that removal asserts (`(env) != nullptr`, the process aborts) when the garbage
 * collector frees a better-sqlite3 statement, which a daemon does all day. Node 26 takes
 * the same header without the abort, and Node 22's has no hooks. The hooks only delete
 * wrapped objects when a worker thread's environment ends (svc's databases live on the
 * main thread until exit), so the build compiles against the same headers with those two
 * calls left out: `nodeDir` shadowed, only node_object_wrap.h changed.
 */
function headersWithoutObjectWrapHooks(nodeDir, work) {
  const header = path.join(nodeDir, 'include', 'node', 'node_object_wrap.h');
  const text = fs.readFileSync(header, 'utf8');
  const patched = text.replace(/^\s*AddCleanupHook\(\);\n/m, '').replace(/^\s*RemoveCleanupHook\(\);\n/m, '');
  if (patched === text) return nodeDir;
  if (/^\s*(Add|Remove)CleanupHook\(\);$/m.test(patched))
    throw new Error(`${header}: unexpected ObjectWrap cleanup hook calls; see headersWithoutObjectWrapHooks`);
  const shadow = path.join(work, 'nodedir');
  fs.mkdirSync(path.join(shadow, 'include', 'node'), { recursive: true });
  for (const e of fs.readdirSync(nodeDir))
    if (e !== 'include') fs.symlinkSync(path.join(nodeDir, e), path.join(shadow, e));
  for (const e of fs.readdirSync(path.join(nodeDir, 'include')))
    if (e !== 'node') fs.symlinkSync(path.join(nodeDir, 'include', e), path.join(shadow, 'include', e));
  for (const e of fs.readdirSync(path.join(nodeDir, 'include', 'node'))) {
    const to = path.join(shadow, 'include', 'node', e);
    if (e === 'node_object_wrap.h') fs.writeFileSync(to, patched);
    else fs.symlinkSync(path.join(nodeDir, 'include', 'node', e), to);
  }
  return shadow;
}

/**
 * The proof a binary fits a Node: that Node loads it, runs a query, and survives statements
 * churned through the garbage collector (where Node 24 aborted, see above). In a child
 * process, since a failing binary may abort the process that loads it.
 */
function survivesIn(node, file) {
  const script = `const D = require(${JSON.stringify(bsqlDir)}); const db = new D(':memory:', { nativeBinding: ${JSON.stringify(file)} }); for (let i = 0; i < 50000; i++) db.prepare('select ' + i).get(); gc()`;
  const r = spawnSync(node, ['--expose-gc', '-e', script], { encoding: 'utf8' });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

/**
 * Puts the running Node's binary into the cache from node_modules (built by npm ci) when it
 * passes the same check as a build of our own: then the running Node needs no build at all.
 * Under Node 24, npm ci's build (without the header fix above) fails that check and is built here.
 */
export function seedFromNodeModules() {
  const target = cachedBinary(process.versions.modules);
  const installed = path.join(bsqlDir, 'build', 'Release', 'better_sqlite3.node');
  if (fs.existsSync(target) || !supported.node.some((n) => String(n.abi) === process.versions.modules)) return;
  if (!fs.existsSync(installed) || !survivesIn(process.execPath, installed).ok) return;
  fs.mkdirSync(nativeCache, { recursive: true });
  fs.copyFileSync(installed, `${target}.tmp`);
  fs.renameSync(`${target}.tmp`, target);
}

/** node-gyp as shipped inside npm (every Node install has it; it is not a dependency of svc). */
function nodeGypScript() {
  const candidates = [];
  if (process.env.npm_config_node_gyp) candidates.push(process.env.npm_config_node_gyp);
  const globalRoot = spawnSync('npm', ['root', '-g'], { encoding: 'utf8' }).stdout?.trim();
  if (globalRoot) candidates.push(path.join(globalRoot, 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'));
  candidates.push(
    path.join(
      path.dirname(process.execPath),
      '..',
      'lib',
      'node_modules',
      'npm',
      'node_modules',
      'node-gyp',
      'bin',
      'node-gyp.js',
    ),
  );
  const found = candidates.find((c) => fs.existsSync(c));
  if (!found) throw new Error(`node-gyp not found (looked in ${candidates.join(', ')}); it ships with npm`);
  return found;
}

function run(cmd, args, opts) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

async function buildOne(entry, nodeGyp) {
  const started = Date.now();
  const nodeDir = installRegistryNode(entry.ci);
  const node = path.join(nodeDir, 'bin', 'node');
  const work = path.join(nativeCache, `build-abi${entry.abi}-${process.pid}`);
  fs.rmSync(work, { recursive: true, force: true });
  fs.mkdirSync(work, { recursive: true });
  for (const f of ['package.json', 'binding.gyp', 'src', 'deps'])
    fs.cpSync(path.join(bsqlDir, f), path.join(work, f), { recursive: true });
  const headers = headersWithoutObjectWrapHooks(nodeDir, work);
  const env = { ...process.env, npm_config_nodedir: headers };
  const r = await run(node, [nodeGyp, 'rebuild', '--release', `--nodedir=${headers}`], { cwd: work, env });
  const built = path.join(work, 'build', 'Release', 'better_sqlite3.node');
  if (r.code !== 0 || !fs.existsSync(built)) {
    throw new Error(
      `building better-sqlite3 ${bsqlVersion} for Node ${entry.ci} failed (exit ${r.code}):\n${r.out.slice(-4000)}`,
    );
  }
  const check = survivesIn(node, built);
  if (!check.ok) throw new Error(`the better-sqlite3 built for Node ${entry.ci} does not load in it:\n${check.out}`);
  const target = cachedBinary(entry.abi);
  fs.copyFileSync(built, `${target}.tmp`);
  fs.renameSync(`${target}.tmp`, target);
  fs.rmSync(work, { recursive: true, force: true });
  console.log(
    `built better-sqlite3 ${bsqlVersion} for Node ${entry.ci} (ABI ${entry.abi}) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** The supported Node whose ABI is the running one's (undefined on a Node svc does not support). */
export function runningNode() {
  return supported.node.find((n) => String(n.abi) === process.versions.modules);
}

/** Builds the given supported Nodes' binaries missing from the cache (default: every one); two at a time at most. */
export async function buildNative(nodes = supported.node) {
  seedFromNodeModules();
  const missing = nodes.filter((n) => !fs.existsSync(cachedBinary(n.abi)));
  if (!missing.length) return;
  const nodeGyp = nodeGypScript();
  const started = Date.now();
  const queue = [...missing];
  const workers = Array.from({ length: Math.min(2, os.availableParallelism?.() ?? 2, queue.length) }, async () => {
    while (queue.length) await buildOne(queue.shift(), nodeGyp);
  });
  await Promise.all(workers);
  console.log(
    `better-sqlite3 for Node ${missing.map((n) => n.major).join(', ')}: ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

/** Fills dist/native/ from the cache (this platform only); returns the majors it holds. */
export function copyNativeToDist(distDir) {
  seedFromNodeModules();
  const nativeDir = path.join(distDir, path.dirname(distBinaryPath(0)));
  fs.rmSync(nativeDir, { recursive: true, force: true });
  fs.mkdirSync(nativeDir, { recursive: true });
  // The binaries are better-sqlite3 (and SQLite, public domain): its MIT notice goes with them.
  fs.copyFileSync(path.join(bsqlDir, 'LICENSE'), path.join(nativeDir, 'better-sqlite3.LICENSE'));
  const have = [];
  for (const n of supported.node) {
    const cached = cachedBinary(n.abi);
    if (!fs.existsSync(cached)) continue;
    fs.copyFileSync(cached, path.join(distDir, distBinaryPath(n.abi)));
    have.push(n.major);
  }
  return have;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const here = runningNode();
  await buildNative(process.argv.includes('--every-node') || !here ? supported.node : [here]);
}
