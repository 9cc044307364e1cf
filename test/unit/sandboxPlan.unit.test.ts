// The sandbox's plan, bubblewrap command line and Seatbelt profile, from fixed facts: what is
// hidden, writable and read-only, in which order (a later, deeper mount wins), and the mode a
// lane gets from its launch, role, harness and platform.
import * as assert from 'node:assert/strict';
import { bwrapArgs } from '../../server/sandbox/bwrapArgs';
import { expandState } from '../../server/sandbox/sandboxedCommand';
import { defaultSandboxMode, resolveSandboxMode } from '../../server/sandbox/sandboxMode';
import { sandboxMounts } from '../../server/sandbox/sandboxPlan';
import type { SandboxFacts } from '../../server/sandbox/sandboxPlan';
import { seatbeltProfile } from '../../server/sandbox/seatbeltProfile';

const FACTS: SandboxFacts = {
  cwd: '/home/u/proj-lanes/r-k',
  svcHome: '/home/u/.svc',
  gitDir: '/home/u/proj/.git/worktrees/r-k',
  commonDir: '/home/u/proj/.git',
  localRemotes: ['/home/u/proj-origin.git'],
  hooksPath: undefined,
  state: ['/home/u/.claude', '/home/u/.claude.json'],
  readable: ['/home/u/.svc/scripts/k.yaml'],
  socket: '/home/u/.svc/agent-7.sock',
  privateTmp: ['/tmp', '/var/tmp'],
};

/** Everything exists but a repository's logs and lfs folders, its alternates and a worktree's config.worktree. */
const exists = (p: string) =>
  !p.endsWith('/logs') && !p.endsWith('/lfs') && !p.endsWith('config.worktree') && !p.endsWith('/alternates');

describe('sandbox plan', () => {
  it('hides SVC_HOME and /tmp first, then binds from the shallowest path to the deepest', () => {
    assert.deepEqual(sandboxMounts(FACTS, exists), [
      { kind: 'tmpfs', path: '/tmp' },
      { kind: 'tmpfs', path: '/var/tmp' },
      { kind: 'tmpfs', path: '/home/u/.svc', mode: '0700' },
      { kind: 'rw', path: '/home/u/.claude' },
      { kind: 'rw', path: '/home/u/.claude.json' },
      { kind: 'rw', path: '/home/u/proj-lanes/r-k' },
      { kind: 'rw', path: '/home/u/proj-origin.git/objects' },
      { kind: 'rw', path: '/home/u/proj-origin.git/refs' },
      { kind: 'rw', path: '/home/u/.svc/agent-7.sock' },
      { kind: 'ro', path: '/home/u/proj-lanes/r-k/.git' },
      { kind: 'rw', path: '/home/u/proj/.git/objects' },
      { kind: 'rw', path: '/home/u/proj/.git/refs' },
      { kind: 'ro', path: '/home/u/.svc/scripts/k.yaml' },
      { kind: 'rw', path: '/home/u/proj/.git/worktrees/r-k' },
      { kind: 'ro', path: '/home/u/proj/.git/worktrees/r-k/commondir' },
      { kind: 'ro', path: '/home/u/proj/.git/worktrees/r-k/gitdir' },
    ]);
  });

  it('keeps objects/info/alternates read-only inside the writable object store (a lane repository borrows the project’s)', () => {
    const ms = sandboxMounts(FACTS, () => true);
    const at = (p: string) => ms.findIndex((m) => m.path === p);
    const alt = '/home/u/proj/.git/objects/info/alternates';
    assert.equal(ms[at(alt)].kind, 'ro');
    assert.ok(at(alt) > at('/home/u/proj/.git/objects'));
  });

  it('never makes the repository’s hooks, config, info, HEAD or other worktrees writable', () => {
    const writable = sandboxMounts(FACTS, () => true).filter((m) => m.kind === 'rw');
    for (const p of [
      '/home/u/proj/.git',
      '/home/u/proj/.git/hooks',
      '/home/u/proj/.git/config',
      '/home/u/proj/.git/info',
      '/home/u/proj/.git/HEAD',
      '/home/u/proj/.git/worktrees',
    ]) {
      assert.ok(!writable.some((m) => p === m.path || p.startsWith(m.path + '/')), `${p} stays read-only`);
    }
    assert.ok(
      writable.some((m) => m.path === '/home/u/proj/.git/logs'),
      'reflogs are writable where they exist',
    );
    assert.ok(
      writable.some((m) => m.path === '/home/u/proj/.git/lfs'),
      "git-lfs's folder is writable where it exists: its post-commit and pre-push hooks write there",
    );
  });

  it('keeps a hooks path inside the worktree, and a clone’s own hooks and config, read-only', () => {
    const clone = {
      ...FACTS,
      gitDir: '/home/u/proj-lanes/r-k/.git',
      commonDir: '/home/u/proj-lanes/r-k/.git',
      hooksPath: '/home/u/proj-lanes/r-k/.githooks',
    };
    const ro = sandboxMounts(clone, () => true)
      .filter((m) => m.kind === 'ro')
      .map((m) => m.path);
    for (const p of ['.githooks', '.git', '.git/hooks', '.git/config', '.git/info'])
      assert.ok(ro.includes(`/home/u/proj-lanes/r-k/${p}`), `${p} read-only`);
  });

  it('shows a lane repository’s own config copy at its config folder’s place (bubblewrap), and leaves it out of a Seatbelt profile', () => {
    const own: SandboxFacts = {
      ...FACTS,
      gitDir: '/home/u/proj-lanes/.git-lanes/r-k.git/worktrees/r-k',
      commonDir: '/home/u/proj-lanes/.git-lanes/r-k.git',
      privateConfig: {
        at: '/home/u/proj-lanes/.git-lanes/r-k.git/svc',
        from: '/home/u/proj-lanes/.git-lanes/r-k.git/svc-sandbox',
      },
    };
    const ms = sandboxMounts(own, exists);
    const copy = ms.find((m) => m.path === '/home/u/proj-lanes/.git-lanes/r-k.git/svc');
    assert.deepEqual(copy, {
      kind: 'rw',
      path: '/home/u/proj-lanes/.git-lanes/r-k.git/svc',
      from: '/home/u/proj-lanes/.git-lanes/r-k.git/svc-sandbox',
    });
    // Nothing of the person's repository is bound at all.
    assert.deepEqual(
      ms.filter((m) => m.path.startsWith('/home/u/proj/')),
      [],
    );
    const args = bwrapArgs(ms, own.cwd);
    const at = args.indexOf('/home/u/proj-lanes/.git-lanes/r-k.git/svc-sandbox');
    assert.deepEqual(args.slice(at - 1, at + 2), [
      '--bind',
      '/home/u/proj-lanes/.git-lanes/r-k.git/svc-sandbox',
      '/home/u/proj-lanes/.git-lanes/r-k.git/svc',
    ]);
    // Seatbelt cannot show one folder at another's place: the config folder is never made writable there.
    assert.doesNotMatch(seatbeltProfile(ms), /r-k\.git\/svc/);
  });

  it('bubblewrap: no capability, the whole filesystem read-only, its own PID namespace, dies with the daemon, the mounts in order, the network kept', () => {
    const args = bwrapArgs(sandboxMounts(FACTS, exists), FACTS.cwd).slice(2);
    assert.deepEqual(bwrapArgs([], '/w').slice(0, 2), ['--cap-drop', 'ALL']);
    assert.deepEqual(args.slice(0, 9), [
      '--die-with-parent',
      '--unshare-pid',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
    ]);
    assert.deepEqual(args.slice(9, 17), [
      '--tmpfs',
      '/tmp',
      '--tmpfs',
      '/var/tmp',
      '--perms',
      '0700',
      '--tmpfs',
      '/home/u/.svc',
    ]);
    assert.deepEqual(args.slice(17, 20), ['--bind', '/home/u/.claude', '/home/u/.claude']);
    assert.deepEqual(args.slice(-6, -3), [
      '--ro-bind',
      '/home/u/proj/.git/worktrees/r-k/gitdir',
      '/home/u/proj/.git/worktrees/r-k/gitdir',
    ]);
    assert.deepEqual(args.slice(-3), ['--chdir', FACTS.cwd, '--']);
    assert.ok(!args.includes('--unshare-net') && !args.includes('--unshare-all') && !args.includes('--new-session'));
  });

  it('Seatbelt: writes denied, then the same places in the same order, SVC_HOME unreadable, the socket reachable', () => {
    const mac = { ...FACTS, privateTmp: ['/private/tmp', '/private/var/folders/x/T'] };
    assert.equal(
      seatbeltProfile(sandboxMounts(mac, exists)),
      [
        '(version 1)',
        '(allow default)',
        '(deny file-write*)',
        '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/dtracehelper") (regex #"^/dev/tty") (regex #"^/dev/fd/"))',
        '(allow file-write* (subpath "/private/tmp"))',
        '(allow file-write* (subpath "/private/var/folders/x/T"))',
        '(deny file-read* file-write* (subpath "/home/u/.svc"))',
        '(allow file-read* file-write* (subpath "/home/u/.claude"))',
        '(allow file-read* file-write* (subpath "/home/u/.claude.json"))',
        '(allow file-read* file-write* (subpath "/home/u/proj-lanes/r-k"))',
        '(allow file-read* file-write* (subpath "/home/u/proj-origin.git/objects"))',
        '(allow file-read* file-write* (subpath "/home/u/proj-origin.git/refs"))',
        '(allow file-read* file-write* (subpath "/home/u/.svc/agent-7.sock"))',
        '(allow file-read* (subpath "/home/u/proj-lanes/r-k/.git"))',
        '(deny file-write* (subpath "/home/u/proj-lanes/r-k/.git"))',
        '(allow file-read* file-write* (subpath "/home/u/proj/.git/objects"))',
        '(allow file-read* file-write* (subpath "/home/u/proj/.git/refs"))',
        '(allow file-read* (subpath "/home/u/.svc/scripts/k.yaml"))',
        '(deny file-write* (subpath "/home/u/.svc/scripts/k.yaml"))',
        '(allow file-read* file-write* (subpath "/home/u/proj/.git/worktrees/r-k"))',
        '(allow file-read* (subpath "/home/u/proj/.git/worktrees/r-k/commondir"))',
        '(deny file-write* (subpath "/home/u/proj/.git/worktrees/r-k/commondir"))',
        '(allow file-read* (subpath "/home/u/proj/.git/worktrees/r-k/gitdir"))',
        '(deny file-write* (subpath "/home/u/proj/.git/worktrees/r-k/gitdir"))',
        '(allow network-outbound (remote unix-socket (path-literal "/home/u/.svc/agent-7.sock")))',
        '',
      ].join('\n'),
    );
  });

  it('quotes paths for Seatbelt', () => {
    assert.match(seatbeltProfile([{ kind: 'rw', path: '/a "b"\\c' }]), /\(subpath "\/a \\"b\\"\\\\c"\)/);
  });
});

describe('sandbox mode', () => {
  it('is workspace by default on Linux and macOS, off on Windows', () => {
    assert.equal(defaultSandboxMode('linux'), 'workspace');
    assert.equal(defaultSandboxMode('darwin'), 'workspace');
    assert.equal(defaultSandboxMode('win32'), 'off');
  });

  it('takes the launch flag, then the role, then the harness profile, then the default', () => {
    assert.equal(resolveSandboxMode({ launch: 'off', role: 'workspace', profile: 'workspace' }, 'linux'), 'off');
    assert.equal(resolveSandboxMode({ role: 'off', profile: 'workspace' }, 'linux'), 'off');
    assert.equal(resolveSandboxMode({ profile: 'off' }, 'linux'), 'off');
    assert.equal(resolveSandboxMode({ launch: 'workspace', role: 'off' }, 'linux'), 'workspace');
    assert.equal(resolveSandboxMode({}, 'linux'), 'workspace');
    assert.equal(resolveSandboxMode({}, 'win32'), 'off');
  });
});

describe('sandbox: harness state entries', () => {
  const env = { CODEX_HOME: '/srv/codex' };
  it('expands ~/, $VAR and ${VAR:-fallback}; leaves out unset and relative entries', () => {
    assert.equal(expandState('~/.claude', env, '/home/u'), '/home/u/.claude');
    assert.equal(expandState('${CODEX_HOME:-~/.codex}', env, '/home/u'), '/srv/codex');
    assert.equal(expandState('${CODEX_HOME:-~/.codex}', {}, '/home/u'), '/home/u/.codex');
    assert.equal(expandState('$CODEX_HOME', env, '/home/u'), '/srv/codex');
    assert.equal(expandState('$CODEX_HOME', {}, '/home/u'), undefined);
    assert.equal(expandState('relative/dir', env, '/home/u'), undefined);
  });
});
