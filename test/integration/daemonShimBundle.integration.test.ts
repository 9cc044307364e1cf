// The shim's bundles (dist/svc.js, and dist/svcCommands.js it loads for all but the hot
// commands) stay small: they must never load the daemon's modules or its heavy dependencies
// (zod, yaml, better-sqlite3, simple-git, the ACP SDK), or every `svc` call pays for them;
// and dist/svc.js holds no command module but the hot ones. Read from the bundles' source
// maps, so it checks what was built.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import { REPO, run } from '../helpers/scratch';

const DIST = path.join(REPO, 'dist');

function bundledSources(bundle: string): string[] {
  const map = JSON.parse(fs.readFileSync(path.join(DIST, `${bundle}.map`), 'utf8')) as { sources: string[] };
  return map.sources.map((s) => path.relative(REPO, path.resolve(DIST, s)));
}

function packagesOf(sources: string[]): string[] {
  const names = sources
    .filter((s) => s.includes('node_modules/'))
    .map((s) => {
      const rest = s.slice(s.lastIndexOf('node_modules/') + 'node_modules/'.length).split('/');
      return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
    });
  return [...new Set(names)].sort();
}

for (const bundle of ['svc.js', 'svcCommands.js']) {
  describe(`the svc shim bundle ${bundle}`, function () {
    const sources = bundledSources(bundle);

    it('holds no package at all: its JSON-RPC client is shared/client/rpcClient.ts (zod is the inert stand-in)', () => {
      assert.deepEqual(packagesOf(sources), []);
      assert.ok(sources.includes('shared/client/rpcClient.ts'));
      assert.ok(sources.includes('cli/zodInert.ts'));
    });

    it('holds none of the daemon: only cli/ and shared/ sources, no module of server/', () => {
      const elsewhere = sources.filter((s) => !s.startsWith('cli/') && !s.startsWith('shared/'));
      assert.deepEqual(elsewhere, []);
    });

    it('loads at its start only the built-ins every command needs; child_process and crypto where used', () => {
      const text = fs.readFileSync(path.join(DIST, bundle), 'utf8');
      const required = [...new Set([...text.matchAll(/require\("(node:[^"]+)"\)/g)].map((m) => m[1]))].sort();
      assert.deepEqual(required, ['node:fs', 'node:net', 'node:os', 'node:path']);
    });

    it('never requires a package at run time other than node built-ins', () => {
      const text = fs.readFileSync(path.join(DIST, bundle), 'utf8');
      const required = [...text.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
      const nonBuiltin = [...new Set(required)].filter((r) => !r.startsWith('node:') && !builtinModules.includes(r));
      assert.deepEqual(nonBuiltin, []);
    });
  });
}

describe('the svc shim entry', function () {
  it('dist/svc.js takes named imports from built-ins: none is copied property by property at its start', () => {
    // A namespace import (`import * as fs`) is bundled as esbuild's __toESM(require(…)),
    // which defines a getter for each of the module's exports on every start: fs, path,
    // os and net cost ~300 KB of allocation, enough for a scavenge before the shim ends.
    const text = fs.readFileSync(path.join(DIST, 'svc.js'), 'utf8');
    assert.deepEqual(text.match(/[\w$]+\(require\("node:[^"]+"\)\)/g), null);
  });

  it('dist/svc.js holds the hot commands only: the daemon commands, no other command module and no registry', () => {
    const lean = bundledSources('svc.js').filter((s) => s.startsWith('cli/'));
    assert.deepEqual(
      lean.filter((s) => s.startsWith('cli/commands/')),
      ['cli/commands/daemon.ts'],
    );
    assert.ok(!lean.includes('cli/registry.ts') && !lean.includes('cli/main.ts'), lean.join(', '));
    assert.ok(bundledSources('svcCommands.js').includes('cli/registry.ts'));
  });

  it('runs without the daemon for --help and --version', async () => {
    const env = { ...process.env, SVC_HOME: path.join(REPO, '.scratch', 'shim-bundle-never-created') };
    const v = await run(process.execPath, [path.join(DIST, 'svc.js'), '--version'], { env, cwd: REPO });
    assert.equal(v.code, 0);
    assert.match(v.stdout, /^svc \d+\.\d+\.\d+/);
    const h = await run(process.execPath, [path.join(DIST, 'svc.js'), 'daemon', 'status', '--help'], {
      env,
      cwd: REPO,
    });
    assert.equal(h.code, 0);
    assert.match(h.stdout, /^svc daemon status — /);
    // A command that is not hot: dist/svc.js loads the full command line for it.
    const l = await run(process.execPath, [path.join(DIST, 'svc.js'), 'lane', 'list', '--help'], { env, cwd: REPO });
    assert.equal(l.code, 0);
    assert.match(l.stdout, /^svc lane list — /);
    const u = await run(process.execPath, [path.join(DIST, 'svc.js'), 'frobnicate'], { env, cwd: REPO });
    assert.deepEqual([u.code, u.stderr], [1, "svc: unknown command 'frobnicate' (see svc --help)\n"]);
    assert.equal(fs.existsSync(env.SVC_HOME), false, 'help starts no daemon and creates no home');
  });
});
