// A client of another build replaces the running daemon: it asks it to stop, waits for
// it to exit and starts its own. The second build is a real one: a copy of the built
// bundles whose build id (injected by esbuild as a string literal) is rewritten.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { alive, assertOnlyDaemon, daemonPids, discoveryOf, disposeAll, frozenDist } from '../helpers/daemonProcs';
import type { Svc } from '../helpers/daemonProcs';
import { makeScratch, run } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

const OTHER_BUILD = 'otherbuild00';

/** A copy of `dir` (svc.js, daemon.js …) in `name` whose build id is `build`. */
function rebuiltAs(s: Scratch, dir: string, from: string, build: string, name: string): { svc: Svc; dir: string } {
  const out = path.join(s.root, name);
  fs.mkdirSync(out);
  for (const f of fs.readdirSync(dir, { withFileTypes: true })) {
    const [src, dst] = [path.join(dir, f.name), path.join(out, f.name)];
    // native/ holds the SQLite binaries: copied as they are, they carry no build id.
    if (f.isDirectory()) fs.cpSync(src, dst, { recursive: true });
    else fs.writeFileSync(dst, fs.readFileSync(src, 'utf8').split(JSON.stringify(from)).join(JSON.stringify(build)));
  }
  for (const f of ['svc.js', 'daemon.js']) {
    const text = fs.readFileSync(path.join(out, f), 'utf8');
    assert.ok(text.includes(JSON.stringify(build)), `${f} carries build ${build}`);
    assert.ok(!text.includes(JSON.stringify(from)), `${f} no longer carries build ${from}`);
  }
  const svc: Svc = (args, opts = {}) =>
    run(process.execPath, [path.join(out, 'svc.js'), ...args], {
      ...opts,
      env: { ...s.env, ...opts.env },
      cwd: opts.cwd ?? s.home,
    });
  return { svc, dir: out };
}

/** The daemon.js a process runs, from its command line. */
function scriptOf(pid: number): string {
  return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[1];
}

describe('daemon: a client of another build replaces it', function () {
  let s: Scratch;
  let svcA: Svc;
  let buildA: string;
  let dirA: string;
  let svcB: Svc;
  let dirB: string;

  before(() => {
    s = makeScratch('daemonReplace');
    ({ svc: svcA, build: buildA, dir: dirA } = frozenDist(s));
    ({ svc: svcB, dir: dirB } = rebuiltAs(s, dirA, buildA, OTHER_BUILD, 'dist-other'));
  });
  after(async () => disposeAll(s, svcA));

  async function status(svc: Svc): Promise<{ pid: number; build: string; started: boolean }> {
    const r = await svc(['daemon', 'status', '--json']);
    assert.equal(r.stderr, '');
    assert.equal(r.code, 0);
    return JSON.parse(r.stdout) as { pid: number; build: string; started: boolean };
  }

  it('a shim of build B meeting a daemon of build A stops it and starts a daemon of build B', async () => {
    const a = await status(svcA);
    assert.equal(a.build, buildA);
    assert.equal(scriptOf(a.pid), path.join(dirA, 'daemon.js'));

    const b = await status(svcB);
    assert.equal(b.build, OTHER_BUILD);
    assert.equal(b.started, true);
    assert.notEqual(b.pid, a.pid);
    assert.equal(alive(a.pid), false, 'the old daemon exited');
    await assertOnlyDaemon(s.svcHome, b.pid);
    assert.equal(scriptOf(b.pid), path.join(dirB, 'daemon.js'));
    assert.equal(discoveryOf(s).build, OTHER_BUILD);
    const log = fs.readFileSync(path.join(s.svcHome, 'logs', 'daemon.log'), 'utf8');
    assert.match(log, new RegExp(`INFO  \\[daemon\\] stopping: replaced by build ${OTHER_BUILD}\n`));
  });

  it('a shim of the same build keeps the daemon it finds', async () => {
    const b1 = await status(svcB);
    const b2 = await status(svcB);
    assert.equal(b2.pid, b1.pid);
    assert.equal(b2.started, false);
  });

  it('and back: a shim of build A replaces the daemon of build B', async () => {
    const b = await status(svcB);
    const a = await status(svcA);
    assert.equal(a.build, buildA);
    assert.notEqual(a.pid, b.pid);
    assert.equal(alive(b.pid), false);
    await assertOnlyDaemon(s.svcHome, a.pid);
    assert.equal(scriptOf(a.pid), path.join(dirA, 'daemon.js'));
  });

  it('svc daemon stop of another build stops the running daemon without replacing it', async () => {
    const a = await status(svcA);
    const r = await svcB(['daemon', 'stop']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, `svc daemon stopped (pid ${a.pid})\n`);
    assert.equal(alive(a.pid), false);
    assert.deepEqual(daemonPids(s.svcHome), []);
  });
});
