// One SVC_HOME, one daemon, its own: deleting daemon.lock and the socket (and server.json)
// under a running daemon never lets a second one serve the home, and a server.json copied
// from another home never sends this home's commands to that home's daemon.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { alive, assertOnlyDaemon, daemonPids, discoveryOf, disposeAll, frozenDist } from '../helpers/daemonProcs';
import type { Svc } from '../helpers/daemonProcs';
import { makeScratch, sleep } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

async function until(what: string, ok: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await sleep(50);
  }
}

describe('svc daemon: one daemon per SVC_HOME when its files are deleted', function () {
  let s: Scratch;
  let svc: Svc;
  let dist: string;

  beforeEach(async () => {
    s = makeScratch('daemonOneHome');
    ({ svc, dir: dist } = frozenDist(s));
    const r = await svc(['daemon', 'status']);
    assert.equal(r.code, 0, r.stderr);
  });
  afterEach(async () => disposeAll(s, svc));

  it('daemon.lock and svc.sock deleted: the next svc command reaches the same daemon, which puts both back', async () => {
    const d = discoveryOf(s);
    fs.rmSync(path.join(s.svcHome, 'daemon.lock'));
    fs.rmSync(path.join(s.svcHome, 'svc.sock'));
    const r = await svc(['daemon', 'status', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { pid: number }).pid, d.pid);
    await assertOnlyDaemon(s.svcHome, d.pid, 3000);
    await until(
      'daemon.lock and svc.sock exist again',
      () => fs.existsSync(path.join(s.svcHome, 'daemon.lock')) && fs.existsSync(path.join(s.svcHome, 'svc.sock')),
    );
    assert.equal(discoveryOf(s).pid, d.pid);
    // The re-created lock holds: a daemon started by hand exits at once.
    const second = spawn(process.execPath, [path.join(dist, 'daemon.js')], { env: s.env, stdio: 'ignore' });
    const code = await new Promise<number | null>((r) => second.once('exit', r));
    assert.equal(code, 0);
    await assertOnlyDaemon(s.svcHome, d.pid, 3000);
  });

  it('daemon.lock, svc.sock and server.json deleted and a second daemon started at once: the first keeps the home', async () => {
    const d = discoveryOf(s);
    for (const f of ['daemon.lock', 'svc.sock', 'server.json']) fs.rmSync(path.join(s.svcHome, f));
    const second = spawn(process.execPath, [path.join(dist, 'daemon.js')], { env: s.env, stdio: 'ignore' });
    const exited = new Promise<number | null>((r) => second.once('exit', r));
    assert.equal(await exited, 0);
    await assertOnlyDaemon(s.svcHome, d.pid, 5000);
    await until("the home files are the first daemon's again", () => {
      try {
        return (
          discoveryOf(s).pid === d.pid &&
          fs.existsSync(path.join(s.svcHome, 'svc.sock')) &&
          fs.existsSync(path.join(s.svcHome, 'daemon.lock'))
        );
      } catch {
        return false;
      }
    });
    assert.equal(
      fs.existsSync(path.join(s.svcHome, 'daemon.stopped')),
      false,
      'no stop marker of the second daemon is left',
    );
    const r = await svc(['daemon', 'status', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { pid: number }).pid, d.pid);
    assert.deepEqual(daemonPids(s.svcHome), [d.pid]);
  });
});

describe('svc daemon: a server.json copied from another home', function () {
  let a: Scratch;
  let b: Scratch;
  let svcA: Svc;
  let svcB: Svc;

  before(async () => {
    a = makeScratch('daemonHomeA');
    b = makeScratch('daemonHomeB');
    ({ svc: svcA } = frozenDist(a));
    ({ svc: svcB } = frozenDist(b));
  });
  after(async () => {
    await disposeAll(b, svcB);
    await disposeAll(a, svcA);
  });

  it("is not trusted: a stop with the copy's SVC_HOME leaves the other home's daemon running, and a status starts this home's own", async () => {
    assert.equal((await svcA(['daemon', 'status'])).code, 0);
    const da = discoveryOf(a);
    fs.mkdirSync(b.svcHome, { recursive: true, mode: 0o700 });
    fs.copyFileSync(path.join(a.svcHome, 'server.json'), path.join(b.svcHome, 'server.json'));
    fs.chmodSync(path.join(b.svcHome, 'server.json'), 0o600);

    const stop = await svcB(['daemon', 'stop', '--force']);
    assert.equal(stop.code, 0, stop.stderr);
    assert.equal(stop.stdout, 'svc daemon is not running\n');
    assert.equal(alive(da.pid), true, "the other home's daemon still runs");

    const status = await svcB(['daemon', 'status', '--json']);
    assert.equal(status.code, 0, status.stderr);
    const info = JSON.parse(status.stdout) as { pid: number; svcHome: string };
    assert.equal(info.svcHome, b.svcHome);
    assert.notEqual(info.pid, da.pid);
    assert.deepEqual(daemonPids(b.svcHome), [info.pid]);
    assert.equal(discoveryOf(b).pid, info.pid);
    assert.equal(alive(da.pid), true);
  });
});
