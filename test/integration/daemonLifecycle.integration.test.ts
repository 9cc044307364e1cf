// `svc daemon status|stop|restart|log` against the real daemon in a scratch home, and
// the discovery file's protections (mode 0600 in a 0700 folder; symlinks and wrong
// modes refused with a clear message and exit 1).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { alive, assertOnlyDaemon, daemonPids, discoveryOf, disposeAll, frozenDist } from '../helpers/daemonProcs';
import type { Svc } from '../helpers/daemonProcs';
import { makeScratch, REPO, run } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';

const VERSION = (JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string }).version;

/** The text of `svc daemon status`, exact but for the uptime (seconds, load-dependent). */
function assertStatusText(
  out: string,
  verb: 'started' | 'running',
  s: Scratch,
  d: { pid: number; httpPort: number; socketPath: string },
  build: string,
): void {
  const uptime = /^ {2}uptime {2}(\d+) s$/m.exec(out);
  assert.ok(uptime, out);
  assert.equal(
    out,
    [
      `svc daemon ${verb}: pid ${d.pid}, version ${VERSION} (build ${build})`,
      `  home    ${s.svcHome}`,
      `  socket  ${d.socketPath}`,
      `  http    http://127.0.0.1:${d.httpPort}`,
      `  uptime  ${uptime[1]} s`,
      `  agents  0 conversations, 0 live`,
    ].join('\n') + '\n',
  );
}

const modeOf = (p: string) => fs.statSync(p).mode & 0o777;

describe('svc daemon status|stop|restart|log', function () {
  let s: Scratch;
  let svc: Svc;
  let build: string;

  before(() => {
    s = makeScratch('daemonLifecycle');
    ({ svc, build } = frozenDist(s));
  });
  after(async () => disposeAll(s, svc));

  it('status starts a daemon and reports it; a second status finds the same one', async () => {
    assert.deepEqual(daemonPids(s.svcHome), []);
    const first = await svc(['daemon', 'status']);
    assert.equal(first.stderr, '');
    assert.equal(first.code, 0);
    const d = discoveryOf(s);
    assert.deepEqual(daemonPids(s.svcHome), [d.pid]);
    assert.equal(d.socketPath, path.join(s.svcHome, 'svc.sock'));
    assertStatusText(first.stdout, 'started', s, d, build);

    const second = await svc(['daemon', 'status']);
    assert.equal(second.code, 0);
    assertStatusText(second.stdout, 'running', s, d, build);
    assert.deepEqual(daemonPids(s.svcHome), [d.pid]);
  });

  it('status --json prints the daemon facts as JSON', async () => {
    const d = discoveryOf(s);
    const r = await svc(['daemon', 'status', '--json']);
    assert.equal(r.code, 0);
    const j = JSON.parse(r.stdout) as Record<string, unknown>;
    assert.deepEqual(Object.keys(j).sort(), [
      'build',
      'conversations',
      'httpPort',
      'live',
      'pid',
      'socketPath',
      'started',
      'startedAt',
      'svcHome',
      'uptimeMs',
      'version',
    ]);
    assert.deepEqual(
      {
        pid: j.pid,
        version: j.version,
        build: j.build,
        socketPath: j.socketPath,
        httpPort: j.httpPort,
        svcHome: j.svcHome,
        started: j.started,
        conversations: j.conversations,
        live: j.live,
      },
      {
        pid: d.pid,
        version: VERSION,
        build,
        socketPath: d.socketPath,
        httpPort: d.httpPort,
        svcHome: s.svcHome,
        started: false,
        conversations: 0,
        live: 0,
      },
    );
    assert.ok(typeof j.uptimeMs === 'number' && j.uptimeMs >= 0);
    assert.ok(typeof j.startedAt === 'number' && j.startedAt <= Date.now());
  });

  it('writes server.json with mode 0600 in a 0700 folder, naming pid, version, socket, port and token', () => {
    const file = path.join(s.svcHome, 'server.json');
    assert.equal(fs.lstatSync(file).isFile(), true);
    assert.equal(modeOf(file), 0o600);
    assert.equal(modeOf(s.svcHome), 0o700);
    const d = discoveryOf(s);
    assert.deepEqual(Object.keys(d).sort(), ['build', 'home', 'httpPort', 'pid', 'socketPath', 'token', 'version']);
    assert.equal(d.home, fs.realpathSync(s.svcHome));
    assert.match(d.token, /^[0-9a-f]{64}$/);
    assert.equal(d.version, VERSION);
    assert.equal(d.build, build);
    assert.equal(modeOf(d.socketPath), 0o600);
  });

  it('log prints the end of SVC_HOME/logs/daemon.log; --lines limits it; a bad --lines is a usage error', async () => {
    const d = discoveryOf(s);
    const all = await svc(['daemon', 'log']);
    assert.equal(all.code, 0);
    assert.match(
      all.stdout,
      new RegExp(
        `INFO  \\[daemon\\] started pid ${d.pid} build ${build} socket ${d.socketPath.replace(/[.]/g, '\\.')} http 127\\.0\\.0\\.1:${d.httpPort}\n`,
      ),
    );
    const one = await svc(['daemon', 'log', '--lines', '1']);
    assert.equal(one.code, 0);
    const eq = await svc(['daemon', 'log', '--lines=2']);
    // The daemon may log more meanwhile; what was printed is still consecutive lines of the file.
    const file = fs.readFileSync(path.join(s.svcHome, 'logs', 'daemon.log'), 'utf8');
    assert.match(one.stdout, /^[^\n]+\n$/);
    assert.ok(file.includes(one.stdout));
    assert.equal(eq.stdout.split('\n').length - 1, Math.min(2, file.trimEnd().split('\n').length));
    assert.ok(file.includes(eq.stdout));
    assert.ok(all.stdout.split('\n').length <= 51, 'at most 50 lines by default');

    const bad = await svc(['daemon', 'log', '--lines', 'x']);
    assert.equal(bad.code, 1);
    assert.equal(bad.stdout, '');
    assert.equal(bad.stderr, "svc daemon log: --lines needs a whole number, got 'x'\nsee svc daemon log --help\n");
  });

  it('restart stops the daemon and starts a new one', async () => {
    const old = discoveryOf(s).pid;
    const r = await svc(['daemon', 'restart']);
    assert.equal(r.stderr, '');
    assert.equal(r.code, 0);
    const d = discoveryOf(s);
    assert.notEqual(d.pid, old);
    assert.equal(alive(old), false);
    assert.deepEqual(daemonPids(s.svcHome), [d.pid]);
    assert.equal(r.stdout.split('\n')[0], `svc daemon started: pid ${d.pid}, version ${VERSION} (build ${build})`);
  });

  it('stop stops it and removes server.json and the socket; a second stop says it is not running', async () => {
    const d = discoveryOf(s);
    const r = await svc(['daemon', 'stop']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, `svc daemon stopped (pid ${d.pid})\n`);
    assert.equal(alive(d.pid), false);
    assert.deepEqual(daemonPids(s.svcHome), []);
    assert.equal(fs.existsSync(path.join(s.svcHome, 'server.json')), false);
    assert.equal(fs.existsSync(d.socketPath), false);

    const again = await svc(['daemon', 'stop']);
    assert.equal(again.code, 0);
    assert.equal(again.stdout, 'svc daemon is not running\n');
    assert.deepEqual(daemonPids(s.svcHome), [], 'stop must not start a daemon');
    const log = await svc(['daemon', 'log', '--lines', '20']);
    assert.match(log.stdout, /INFO  \[daemon\] stopping: svc daemon stop\n(.*\n)*.*INFO  \[daemon\] stopped\n$/);
  });

  it('stop with a stale server.json (its daemon was killed) says not running and starts nothing', async () => {
    await svc(['daemon', 'status']);
    const d = discoveryOf(s);
    process.kill(d.pid, 'SIGKILL');
    while (alive(d.pid)) await new Promise((r) => setTimeout(r, 20));
    const r = await svc(['daemon', 'stop']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, 'svc daemon is not running\n');
    assert.deepEqual(daemonPids(s.svcHome), []);
  });
});

describe('svc daemon: discovery file and home protections', function () {
  let s: Scratch;
  let svc: Svc;
  const file = () => path.join(s.svcHome, 'server.json');

  before(async () => {
    s = makeScratch('daemonGuards');
    ({ svc } = frozenDist(s));
    assert.equal((await svc(['daemon', 'status'])).code, 0);
  });
  after(async () => disposeAll(s, svc));

  it('log before any daemon ran is an error naming the file', async () => {
    const other = makeScratch('daemonNoLog');
    try {
      const r = await svc(['daemon', 'log'], { env: { SVC_HOME: other.svcHome, HOME: other.home } });
      assert.equal(r.code, 1);
      assert.equal(r.stderr, `no daemon log yet at ${path.join(other.svcHome, 'logs', 'daemon.log')}\n`);
      assert.deepEqual(daemonPids(other.svcHome), []);
    } finally {
      await disposeAll(other);
    }
  });

  it('refuses a symlinked server.json (exit 1) and works again once it is removed', async () => {
    const pid = discoveryOf(s).pid;
    const copy = path.join(s.root, 'server-copy.json');
    fs.copyFileSync(file(), copy);
    fs.chmodSync(copy, 0o600);
    fs.rmSync(file());
    fs.symlinkSync(copy, file());
    for (const args of [
      ['daemon', 'status'],
      ['daemon', 'stop'],
      ['project', 'list'],
    ]) {
      const r = await svc(args);
      assert.equal(r.code, 1, args.join(' '));
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, `${file()} is a symlink; svc refuses it (remove it and run svc again)\n`);
    }
    fs.rmSync(file());
    const r = await svc(['daemon', 'status', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { pid: number }).pid, pid, 'the running daemon is found again');
    await assertOnlyDaemon(s.svcHome, pid);
    assert.equal(fs.lstatSync(file()).isFile(), true);
    assert.equal(modeOf(file()), 0o600);
  });

  it('refuses a server.json readable by others (exit 1)', async () => {
    fs.chmodSync(file(), 0o644);
    for (const args of [
      ['daemon', 'status'],
      ['daemon', 'stop'],
    ]) {
      const r = await svc(args);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, `${file()} has mode 644; svc needs 600 (remove it and run svc again)\n`);
    }
    fs.chmodSync(file(), 0o600);
    assert.equal((await svc(['daemon', 'status'])).code, 0);
  });

  it('refuses a home folder readable by others (exit 1)', async () => {
    fs.chmodSync(s.svcHome, 0o755);
    try {
      for (const args of [
        ['daemon', 'status'],
        ['daemon', 'stop'],
      ]) {
        const r = await svc(args);
        assert.equal(r.code, 1);
        assert.equal(r.stdout, '');
        assert.equal(r.stderr, `${s.svcHome} has mode 755; svc needs 700 (run: chmod 700 '${s.svcHome}')\n`);
      }
    } finally {
      fs.chmodSync(s.svcHome, 0o700);
    }
    assert.equal((await svc(['daemon', 'status'])).code, 0);
  });

  it('refuses a home that is a symlink, in the shim and in the daemon itself (exit 1)', async () => {
    const real = path.join(s.root, 'real-home');
    fs.mkdirSync(real, { mode: 0o700 });
    const link = path.join(s.root, 'linked-home');
    fs.symlinkSync(real, link);
    const env = { SVC_HOME: link };
    const r = await svc(['daemon', 'status'], { env });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `${link} is a symlink; svc refuses to use it (set SVC_HOME to a real folder)\n`);
    assert.deepEqual(daemonPids(link), []);
    assert.deepEqual(fs.readdirSync(real), [], 'nothing was written through the link');

    const direct = await run(process.execPath, [path.join(s.root, 'dist', 'daemon.js')], {
      env: { ...s.env, SVC_HOME: link },
      cwd: s.home,
    });
    assert.equal(direct.code, 1);
    assert.match(
      direct.stderr,
      new RegExp(`svc daemon failed to start: ${link.replace(/[.]/g, '\\.')} is a symlink; svc refuses to use it`),
    );
    assert.deepEqual(fs.readdirSync(real), []);
  });

  it('an SVC_HOME that cannot be written and no daemon there: a one-line message, no stack trace (exit 1)', async () => {
    // A file where a folder should be stands in for a read-only file system (as root,
    // modes do not stop writes): creating SVC_HOME fails the same way, with ENOTDIR.
    const blocker = path.join(s.root, 'not-a-folder');
    fs.writeFileSync(blocker, '');
    const home = path.join(blocker, '.svc');
    const r = await svc(['daemon', 'status'], { env: { SVC_HOME: home } });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      `cannot start the svc daemon: SVC_HOME ${home} cannot be written here (ENOTDIR), and no running daemon answered there; run svc where that folder is writable (outside a sandbox), or set SVC_HOME to a writable folder\n`,
    );
  });
});
