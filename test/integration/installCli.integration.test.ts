// `svc install-cli` end to end, in a scratch home whose ~/.profile is Debian's default (it
// puts ~/.local/bin on a login shell's PATH when the folder exists): afterwards a login
// shell (`bash -lc`, whose /etc/profile resets PATH, as codex's shell does) finds svc, a
// lane running its commands in such a shell without $SVC_BIN files its report, and
// `svc doctor` says so; uninstall removes the launcher. A file that is not svc's and a
// folder outside home are refused and left as they were.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { BIN_DIR, git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

const DEBIAN_PROFILE = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'debian-default.profile'), 'utf8');

describe('svc install-cli', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;
  let link: string;

  /** What `bash -lc 'command -v svc'` prints with the scratch's environment (its PATH has bin/ first; the login resets it). */
  const loginFinds = () =>
    spawnSync('/bin/bash', ['-lc', 'command -v svc'], { env: s.env, encoding: 'utf8' }).stdout.trim();
  /** The "svc command" group of `svc doctor`: its title, each check and its fix. */
  const doctorCli = async () => {
    const lines = (await s.svc(['doctor'])).stdout.split('\n');
    const at = lines.indexOf('svc command');
    assert.ok(at >= 0, lines.join('\n'));
    let end = at + 1;
    while (lines[end]?.startsWith(' ')) end++;
    return lines.slice(at, end).join('\n');
  };

  before(async () => {
    s = makeScratch('install-cli');
    fs.writeFileSync(path.join(s.home, '.profile'), DEBIAN_PROFILE);
    link = path.join(s.home, '.local', 'bin', 'svc');
    w = await laneWorld(s);
  });
  after(async () => s?.dispose());

  it('before it, a login shell finds no svc of this home, and the doctor says how to fix that', async () => {
    assert.notEqual(loginFinds(), link);
    assert.equal(
      await doctorCli(),
      'svc command\n  note     a login shell does not find svc: your terminals, and codex lanes (which run commands in a login shell) have no svc command\n           fix: svc install-cli (in VS Code: "svc: Install \'svc\' Command in PATH")',
    );
  });

  it("before it, a lane's git push from a login shell (no svc on its PATH) still goes through svc", async () => {
    const inLoginShell = [
      'echo pushed > pushed.txt',
      'git add pushed.txt',
      "git commit -q -m 'pushed'",
      'git push -q -u origin HEAD',
    ];
    const brief = writeBrief(w.briefs, 'login-push.md', [
      { run: `env -u SVC_BIN bash -lc "${inLoginShell.join(' && ')}"`, check: true },
      { run: 'echo pushed from a login shell | "$SVC_BIN" lane report --stdin', check: true },
    ]);
    await startLane(w, { run: 'loginpush', key: 'k', role: 'builder', model: 'm', brief });
    const waited = await s.svc(['lane', 'wait', 'loginpush-k-builder-i1', '--timeout', '60']);
    assert.equal(waited.code, 0, waited.stdout + waited.stderr);
    assert.equal(
      git(w.origin, s.env, 'rev-parse', 'refs/heads/loginpush/k'),
      git(w.repo, s.env, 'rev-parse', 'refs/heads/loginpush/k'),
    );
  });

  it('writes a launcher in ~/.local/bin that a login shell finds and runs, and says so', async () => {
    const r = await s.svc(['install-cli']);
    assert.equal(r.code, 0, r.stderr);
    const shim = path.join(BIN_DIR, 'svc');
    assert.equal(
      r.stdout,
      `installed ${link}: runs ${shim} with ${process.execPath}; a login shell finds it (bash -lc 'command -v svc')\n`,
    );
    assert.equal(r.stderr, '');
    assert.equal(
      fs.readFileSync(link, 'utf8'),
      `#!/bin/sh\n# svc's command, installed by svc install-cli; svc uninstall-cli removes it\nexec '${process.execPath}' '${shim}' "$@"\n`,
    );
    assert.equal(fs.statSync(link).mode & 0o777, 0o755);
    assert.equal(loginFinds(), link);
    const version = spawnSync('/bin/bash', ['-lc', 'svc --version'], { env: s.env, encoding: 'utf8' });
    assert.equal(version.status, 0, version.stderr);
    assert.equal(version.stdout, (await ok(s.svc(['--version']))).stdout);
    const again = await s.svc(['install-cli']);
    assert.equal(
      again.stdout,
      `already installed ${link}: runs ${shim} with ${process.execPath}; a login shell finds it (bash -lc 'command -v svc')\n`,
    );
    assert.equal(
      await doctorCli(),
      `svc command\n  ok       a login shell finds svc: ${link} runs ${shim} with ${process.execPath}`,
    );
  });

  it("lets a lane whose commands run in a login shell, without $SVC_BIN, file its report (codex's shell)", async () => {
    const inLoginShell = [
      'command -v svc > where.txt',
      'git add where.txt',
      "git commit -q -m 'where svc is'",
      'git push -q -u origin HEAD',
      'echo reported from a login shell | svc lane report --stdin',
    ];
    const step = `env -u SVC_BIN bash -lc "${inLoginShell.join(' && ')}"`;
    const brief = writeBrief(w.briefs, 'login.md', [{ run: step, check: true }]);
    await startLane(w, { run: 'login', key: 'k', role: 'builder', model: 'm', brief });
    const waited = await s.svc(['lane', 'wait', 'login-k-builder-i1', '--timeout', '60']);
    assert.equal(waited.code, 0, waited.stdout + waited.stderr);
    const lane = (
      JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as {
        name: string;
        cwd: string;
        report?: { status: string; body: string };
      }[]
    ).find((l) => l.name === 'login-k-builder-i1')!;
    assert.equal(lane.report?.status, 'done');
    assert.equal(lane.report?.body, 'reported from a login shell\n');
    assert.equal(fs.readFileSync(path.join(lane.cwd, 'where.txt'), 'utf8'), `${link}\n`);
  });

  it('uninstall-cli removes it; the doctor then counts it as a problem where a setting uses codex', async () => {
    const r = await s.svc(['uninstall-cli']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `removed ${link}\n`);
    assert.ok(!fs.existsSync(link));
    assert.notEqual(loginFinds(), link);
    assert.equal((await s.svc(['uninstall-cli'])).stdout, `nothing to remove: ${link} does not exist\n`);
    fs.writeFileSync(path.join(s.svcHome, 'config.yaml'), 'roles:\n  review:\n    harness: codex\n', { mode: 0o600 });
    try {
      assert.equal(
        await doctorCli(),
        'svc command\n  PROBLEM  a login shell does not find svc: codex lanes (which run commands in a login shell) and your terminals have no svc command\n           fix: svc install-cli (in VS Code: "svc: Install \'svc\' Command in PATH")',
      );
    } finally {
      fs.writeFileSync(path.join(s.svcHome, 'config.yaml'), '', { mode: 0o600 });
    }
  });

  it("refuses to replace or remove a file of that name that is not svc's, and leaves it as it was", async () => {
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.writeFileSync(link, '#!/bin/sh\necho mine\n', { mode: 0o755 });
    try {
      const r = await s.svc(['install-cli']);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.equal(
        r.stderr,
        `${link} exists and is not svc's launcher: svc leaves it alone; move it away, then run svc install-cli again\n`,
      );
      const u = await s.svc(['uninstall-cli']);
      assert.equal(u.code, 1);
      assert.equal(
        u.stderr,
        `${link} is not svc's launcher: svc leaves it alone; remove it yourself if you want it gone\n`,
      );
      assert.equal(fs.readFileSync(link, 'utf8'), '#!/bin/sh\necho mine\n');
    } finally {
      fs.rmSync(link);
    }
  });

  it('never writes outside home: a ~/.local/bin that leads out of it is refused', async () => {
    const outside = path.join(s.root, 'outside-bin');
    fs.mkdirSync(outside);
    fs.rmSync(path.dirname(link), { recursive: true, force: true });
    fs.symlinkSync(outside, path.dirname(link));
    try {
      const r = await s.svc(['install-cli']);
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        `${path.dirname(link)} is ${outside}, outside your home (${s.home}): svc writes only under your home; make ${path.dirname(link)} a folder of your home, then run svc install-cli again\n`,
      );
      assert.deepEqual(fs.readdirSync(outside), []);
    } finally {
      fs.rmSync(path.dirname(link));
    }
  });
});
