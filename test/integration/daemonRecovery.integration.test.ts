// After kill -9 of the daemon the next `svc` command brings a new one up: a stale lock,
// socket or discovery file never blocks it. Also a garbage server.json, one naming a
// dead pid, and one damaged while its daemon still runs.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { alive, assertOnlyDaemon, daemonPids, discoveryOf, disposeAll, frozenDist } from '../helpers/daemonProcs';
import type { Svc } from '../helpers/daemonProcs';
import { makeScratch, run, sleep } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

async function killHard(pid: number): Promise<void> {
  process.kill(pid, 'SIGKILL');
  while (alive(pid)) await sleep(20);
}

describe('daemon recovery: kill -9 and stale files', function () {
  let s: Scratch;
  let svc: Svc;
  const file = () => path.join(s.svcHome, 'server.json');

  /** Runs `svc daemon status --json`; asserts success and exactly one daemon, returns its pid. */
  async function statusPid(): Promise<number> {
    const r = await svc(['daemon', 'status', '--json']);
    assert.equal(r.stderr, '');
    assert.equal(r.code, 0);
    const pid = (JSON.parse(r.stdout) as { pid: number }).pid;
    await assertOnlyDaemon(s.svcHome, pid);
    assert.equal(discoveryOf(s).pid, pid);
    return pid;
  }

  before(() => {
    s = makeScratch('daemonRecovery');
    ({ svc } = frozenDist(s));
  });
  after(async () => disposeAll(s, svc));

  it('after kill -9 the next svc command starts a new daemon past the stale lock, socket and server.json', async () => {
    const first = await statusPid();
    const stale = discoveryOf(s);
    await killHard(first);
    // What kill -9 leaves behind: every file, none of them cleaned up.
    assert.equal(fs.existsSync(file()), true);
    assert.equal(fs.existsSync(stale.socketPath), true);
    assert.equal(fs.existsSync(path.join(s.svcHome, 'daemon.lock')), true);

    const r = await svc(['project', 'list']);
    assert.equal(r.stderr, '');
    assert.equal(r.code, 0);
    assert.equal(r.stdout, 'no projects (add one with: svc project add <key> <path>)\n');
    const second = await statusPid();
    assert.notEqual(second, first);
    const fresh = discoveryOf(s);
    assert.notEqual(fresh.token, stale.token, 'a new token for the new daemon');
  });

  it('a garbage server.json with no daemon behind it does not block', async () => {
    await killHard(await statusPid());
    fs.writeFileSync(file(), '{"pid": 12, garbage', { mode: 0o600 });
    const pid = await statusPid();
    assert.equal(discoveryOf(s).pid, pid);
  });

  it('an empty server.json does not block', async () => {
    await killHard(await statusPid());
    fs.writeFileSync(file(), '', { mode: 0o600 });
    await statusPid();
  });

  it('a server.json naming a dead pid and a socket nobody serves does not block', async () => {
    const pid = await statusPid();
    const d = discoveryOf(s);
    await svc(['daemon', 'stop']);
    // Rebuild the scene by hand: the file names the dead daemon, its socket path is a
    // plain file left on disk.
    fs.writeFileSync(file(), JSON.stringify(d), { mode: 0o600 });
    fs.writeFileSync(d.socketPath, '');
    assert.equal(alive(pid), false);
    const next = await statusPid();
    assert.notEqual(next, pid);
  });

  it('a stale socket that refuses connections does not block', async () => {
    const pid = await statusPid();
    const d = discoveryOf(s);
    await killHard(pid);
    // A bound-but-dead socket: connect() is refused (ECONNREFUSED), as after a crash.
    await connectExpectingRefusal(d.socketPath);
    const next = await statusPid();
    assert.notEqual(next, pid);
  });

  it('a server.json damaged or deleted while its daemon runs is rewritten, and svc finds the same daemon', async () => {
    const pid = await statusPid();
    const good = fs.readFileSync(file(), 'utf8');
    fs.writeFileSync(file(), 'garbage', { mode: 0o600 });
    assert.equal(await statusPid(), pid);
    assert.equal(fs.readFileSync(file(), 'utf8'), good);

    fs.rmSync(file());
    assert.equal(await statusPid(), pid);
    assert.equal(fs.readFileSync(file(), 'utf8'), good);
    assert.equal(fs.statSync(file()).mode & 0o777, 0o600);
    const log = await svc(['daemon', 'log']);
    assert.match(
      log.stdout,
      new RegExp(`WARN  \\[daemon\\] ${file().replace(/[.]/g, '\\.')} was missing or damaged; rewrote it\n`),
    );
  });

  it('a daemon started by hand while one runs exits at once and leaves the running one alone', async () => {
    const pid = await statusPid();
    const r = await run(process.execPath, [path.join(s.root, 'dist', 'daemon.js')], { env: s.env, cwd: s.home });
    assert.equal(r.code, 0);
    assert.equal(await statusPid(), pid);
    assert.match(
      fs.readFileSync(path.join(s.svcHome, 'logs', 'daemon.log'), 'utf8'),
      /INFO  \[daemon\] another daemon holds the lock; exiting\n/,
    );
  });
});

function connectExpectingRefusal(socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const c = net.connect(socketPath);
    c.once('connect', () => {
      c.destroy();
      reject(new Error(`${socketPath} still accepts connections`));
    });
    c.once('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNREFUSED' ? resolve() : reject(e)));
  });
}

describe('daemon recovery: a daemon that cannot start', function () {
  let s: Scratch;
  let svc: Svc;

  before(() => {
    s = makeScratch('daemonNoStart');
    ({ svc } = frozenDist(s));
  });
  after(async () => disposeAll(s, svc));

  it('fails at once with the reason from its log (exit 1), and works once the cause is gone', async () => {
    fs.mkdirSync(s.svcHome, { mode: 0o700 });
    const db = path.join(s.svcHome, 'svc.db');
    fs.writeFileSync(db, 'this is not an SQLite database, only text long enough to be read as one '.repeat(4));
    const log = path.join(s.svcHome, 'logs', 'daemon.log');
    const r = await svc(['daemon', 'status']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      `svc daemon failed to start (exit 1): ${db} is damaged (SQLite quick_check: file is not a database); svc will not serve a damaged store. ` +
        `No backup in ${path.join(s.svcHome, 'backups')} passes the check: restore svc.db from a backup of your own, or move it away (mv '${db}' '${db}.damaged') to start with an empty store, then run svc again.; see ${log}\n`,
    );
    assert.deepEqual(daemonPids(s.svcHome), []);

    fs.rmSync(db);
    const ok = await svc(['daemon', 'status', '--json']);
    assert.equal(ok.code, 0, ok.stderr);
    await assertOnlyDaemon(s.svcHome, (JSON.parse(ok.stdout) as { pid: number }).pid);
  });
});
