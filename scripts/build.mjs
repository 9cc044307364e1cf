// Builds the bundles with esbuild: the extension (cjs, vscode external), the daemon and
// the shim and the script agent (cjs), and the webviews (iife, browser). The build id is
// a hash of every bundled source, injected into all of them. The daemon bundles
// better-sqlite3's JavaScript and loads its native binary from dist/native/, one per
// supported Node ABI (scripts/buildNative.mjs). A build makes sure the running Node has
// one (taken from npm ci's build when it passes the check, else built once into the
// .native/ cache); `--every-node` (`npm run package`, CI) builds every supported Node's.
// dist/native/ gets every binary the cache holds.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as esbuild from 'esbuild';
import { buildNative, copyNativeToDist, runningNode } from './buildNative.mjs';
import { supported } from './registryNode.mjs';

/** This Node is not one svc runs on: said in one line with the fix (the words of shared/node/supportedNode.ts). */
function unsupportedNodeLine() {
  const majors = supported.node.map((n) => n.major);
  const words = (c) =>
    majors.length > 1 ? `${majors.slice(0, -1).join(', ')} ${c} ${majors.at(-1)}` : String(majors[0]);
  return `Node ${process.version} is not one svc runs on (${words('and')}), so this build has no SQLite module for it: install Node.js ${words('or')} and build with it`;
}

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const watch = process.argv.includes('--watch');
const everyNode = process.argv.includes('--every-node');

function sourceFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sourceFiles(p));
    else if (/\.(ts|css|md)$/.test(e.name)) out.push(p);
  }
  return out;
}

const hash = crypto.createHash('sha256').update(pkg.version);
for (const dir of ['shared', 'server', 'cli', 'extension', 'webview']) {
  for (const f of sourceFiles(path.join(root, dir)).sort()) hash.update(f).update(fs.readFileSync(f));
}
const build = hash.digest('hex').slice(0, 12);
const define = { __SVC_VERSION__: JSON.stringify(pkg.version), __SVC_BUILD__: JSON.stringify(build) };

const node = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  logLevel: 'warning',
  define,
  mainFields: ['module', 'main'],
};

const webviewEntries = fs.existsSync(path.join(root, 'webview'))
  ? fs
      .readdirSync(path.join(root, 'webview'))
      .filter((f) => /Main\.ts$/.test(f))
      .map((f) => path.join(root, 'webview', f))
  : [];

const configs = [
  { ...node, entryPoints: { extension: 'extension/extension.ts' }, external: ['vscode'] },
  {
    ...node,
    entryPoints: {
      daemon: 'server/main.ts',
      scriptAgent: 'server/harness/script/scriptAgentMain.ts',
      svcHost: 'server/hostHelperMain.ts',
      // The facts' worker threads (server/git/factsWorkers.ts) start it beside daemon.js.
      factsWorker: 'server/git/factsWorkerMain.ts',
      // The facts keeper (server/git/factsKeeper.ts), a process the daemon starts detached.
      factsKeeper: 'server/git/factsKeeperMain.ts',
    },
    // The review briefs are Markdown templates bundled as text (server/review/briefs).
    loader: { '.md': 'text' },
  },
  // The shim must start fast: minified, and with zod replaced by an inert stand-in.
  // dist/svc.js runs the hot commands itself and loads dist/svcCommands.js (a library: it
  // exports runCli) for the rest, so a status check compiles only what it runs.
  { ...node, entryPoints: { svc: 'cli/entry.ts' }, minify: true, alias: { zod: './cli/zodInert.ts' } },
  { ...node, entryPoints: { svcCommands: 'cli/main.ts' }, minify: true, alias: { zod: './cli/zodInert.ts' } },
  // The git remote helper of a local lane's pushes (bin/git-remote-svc), as lean as the shim.
  { ...node, entryPoints: { gitRemoteSvc: 'cli/gitRemoteSvc.ts' }, minify: true, alias: { zod: './cli/zodInert.ts' } },
  {
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: 'linked',
    logLevel: 'warning',
    define,
    entryPoints: webviewEntries,
    outdir: 'dist/webview',
    loader: { '.ttf': 'file', '.css': 'text' },
  },
].map((c) => ({
  ...c,
  absWorkingDir: root,
  ...(c.outdir ? {} : { outdir: 'dist' }),
  // Every entry must exist: a moved file fails the build instead of leaving an old bundle.
  entryPoints: Array.isArray(c.entryPoints)
    ? Object.fromEntries(c.entryPoints.map((e) => [path.basename(e, '.ts'), e]))
    : c.entryPoints,
}));

// On a Node svc does not support there is nothing to build for it: the build goes on (the
// bundles are the same for every Node) and says so in one line with the fix.
const here = runningNode();
if (everyNode) await buildNative();
else if (here) await buildNative([here]);
fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
const nativeMajors = copyNativeToDist(path.join(root, 'dist'));
const nativeMissing = supported.node.map((n) => n.major).filter((m) => !nativeMajors.includes(m));
// Webviews load the codicon font from the extension's own dist/ (no remote resources).
fs.mkdirSync(path.join(root, 'dist', 'codicons'), { recursive: true });
for (const f of ['codicon.css', 'codicon.ttf'])
  fs.copyFileSync(
    path.join(root, 'node_modules', '@vscode', 'codicons', 'dist', f),
    path.join(root, 'dist', 'codicons', f),
  );
// gemini's settings layer that svc provides (server/harness/geminiDefaults.ts).
fs.mkdirSync(path.join(root, 'dist', 'harness'), { recursive: true });
fs.copyFileSync(
  path.join(root, 'server', 'harness', 'gemini-system-defaults.json'),
  path.join(root, 'dist', 'harness', 'gemini-system-defaults.json'),
);
if (watch) {
  for (const c of configs) await (await esbuild.context(c)).watch();
  console.log(`watching (build ${build})`);
} else {
  await Promise.all(configs.filter((c) => Object.keys(c.entryPoints).length).map((c) => esbuild.build(c)));
  fs.writeFileSync(path.join(root, 'dist', 'build.json'), JSON.stringify({ version: pkg.version, build }) + '\n');
  console.log(
    `built svc ${pkg.version} (build ${build}); SQLite module for Node ${nativeMajors.join(', ') || 'none'} (${process.platform}-${process.arch})`,
  );
  if (nativeMissing.length)
    console.log(
      `  none for Node ${nativeMissing.join(', ')}: npm run build -- --every-node builds them (~75 s each, cached in .native/)`,
    );
  if (!here) console.log(`  ${unsupportedNodeLine()}`);
}
