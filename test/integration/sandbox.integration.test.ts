// The sandbox from outside: a `--sandbox workspace` lane whose agent tries to write the home
// folder, the project's main checkout, a sibling lane's worktree, the repository's hooks/
// and config, to read caller.key and svc.db, and to launch a lane as the person; each
// fails, and the same agent commits, pushes and reports done. A process it leaves behind
// ends with the lane. The same probes in a `--sandbox off` lane succeed, so the test can fail.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { buildAndReport, laneWorld, ok, startLane, tryStartLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { BIN_DIR, eventually, git, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import type { Step } from '../helpers/scriptBrief';
import { toolBin } from '../helpers/toolBin';

const PROBES = ['home', 'checkout', 'sibling', 'hooks', 'config', 'caller.key', 'svc.db'] as const;

/** One step per probe: it prints `PROBE <name>: succeeded|failed` and never stops the script. */
function probeSteps(w: LaneWorld, sibling: string, mark: string): Step[] {
  const cmds: Record<(typeof PROBES)[number], string> = {
    home: `touch '${w.s.home}/${mark}'`,
    checkout: `touch '${w.repo}/${mark}'`,
    sibling: `touch '${sibling}/${mark}'`,
    hooks: `printf '#!/bin/sh\\n' > '${w.repo}/.git/hooks/${mark}'`,
    config: `printf '[svc]\\n\\t${mark} = 1\\n' >> '${w.repo}/.git/config'`,
    'caller.key': `cat '${w.s.svcHome}/caller.key' > /dev/null`,
    'svc.db': `head -c 16 '${w.s.svcHome}/svc.db' > /dev/null`,
  };
  return PROBES.map((p) => ({
    run: `if ${cmds[p]} 2>/dev/null; then echo 'PROBE ${p}: succeeded'; else echo 'PROBE ${p}: failed'; fi`,
  }));
}

function probeResults(log: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of log.matchAll(/^PROBE (\S+): (succeeded|failed)$/gm)) out[m[1]] = m[2];
  return out;
}

describe('sandbox: a workspace lane can change only its own worktree', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;
  let sibling: string;

  before(async () => {
    s = makeScratch('sandbox');
    w = await laneWorld(s);
    // A sibling lane whose worktree the probes aim at.
    const idle = writeBrief(w.briefs, 'idle.md', [{ say: 'idle' }]);
    sibling = (await startLane(w, { run: 'sb', key: 'sib', role: 'builder', model: 'm', brief: idle })).cwd;
    // A repository whose own post-commit hook writes into .git/lfs, as git-lfs's does.
    fs.mkdirSync(path.join(w.repo, '.git', 'lfs'));
    fs.writeFileSync(
      path.join(w.repo, '.git', 'hooks', 'post-commit'),
      '#!/bin/sh\nd="$(git rev-parse --path-format=absolute --git-common-dir)/lfs/tmp"\nmkdir -p "$d" && git rev-parse HEAD > "$d/post-commit-$(git rev-parse --abbrev-ref HEAD | tr / -)"\n',
      { mode: 0o755 },
    );
  });
  after(async () => s.dispose());

  const lane = async (name: string): Promise<LaneRecord> => {
    const lanes = JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'sb', '--json']))).stdout) as LaneRecord[];
    return lanes.find((l) => l.name === name)!;
  };
  const log = async (name: string) => (await ok(s.svc(['conv', 'log', name, '--lines', '400']))).stdout;

  it('refuses every way out, and still commits, pushes and reports done', async () => {
    const brief = writeBrief(w.briefs, 'confined.md', [
      ...probeSteps(w, sibling, 'confined'),
      // Without SVC_CONVERSATION the request still comes over the lane's own socket: it is the
      // builder's, which may not launch lanes, never a person's.
      {
        run: `env -u SVC_CONVERSATION svc lane start --run sb --key escape --role builder --harness script --model m --prompt hi 2>&1; echo "PROBE launch-as-person: exit $?"`,
      },
      // Claiming the root conversation over its own socket is refused.
      {
        run: `SVC_CONVERSATION=${w.rootId} svc lane start --run sb --key escape --role builder --harness script --model m --prompt hi 2>&1; echo "PROBE launch-as-root: exit $?"`,
      },
      // A write outside the writable places, its error shown: the transcript says the sandbox refused it.
      { run: `touch '${w.repo}/refused-by-sandbox' 2>&1; true` },
      // A process that leaves the agent's process group stays in its PID namespace.
      { run: 'setsid sleep 4242 > /dev/null 2>&1 < /dev/null &' },
      { run: buildAndReport('confined.txt', 'work'), check: true },
    ]);
    const r = await ok(
      tryStartLane(w, { run: 'sb', key: 'confined', role: 'builder', model: 'm', brief, sandbox: 'workspace' }),
    );
    assert.match(r.stdout, /^Lane sb\/confined builder i1: conv \d+ \(sb-confined-builder-i1\)/);
    await ok(s.svc(['lane', 'wait', 'sb-confined-builder-i1', '--timeout', '60']));

    const l = await lane('sb-confined-builder-i1');
    const text = await log('sb-confined-builder-i1');
    assert.deepEqual(probeResults(text), Object.fromEntries(PROBES.map((p) => [p, 'failed'])), text);
    assert.match(text, /^a builder lane may not launch a builder lane; .*\nPROBE launch-as-person: exit 1$/m);
    assert.match(
      text,
      new RegExp(
        `^this connection belongs to agent #${l.id} \\(sb-confined-builder-i1\\) but the request says it comes from #${w.rootId} \\(.*\\); an agent acts only as itself: leave SVC_CONVERSATION as svc set it\\nPROBE launch-as-root: exit 1$`,
        'm',
      ),
    );
    assert.doesNotMatch(text, /^Lane sb\/escape/m);
    for (const f of [
      path.join(s.home, 'confined'),
      path.join(w.repo, 'confined'),
      path.join(sibling, 'confined'),
      path.join(w.repo, '.git', 'hooks', 'confined'),
    ]) {
      assert.equal(fs.existsSync(f), false, `${f} was not written`);
    }
    assert.doesNotMatch(fs.readFileSync(path.join(w.repo, '.git', 'config'), 'utf8'), /confined = 1/);

    assert.equal(l.sandbox, 'workspace');
    assert.equal(l.report?.status, 'done');
    // The repository's hook wrote into the lfs/ folder of the lane's repository from inside the
    // sandbox, for the lane's commit: its own repository's (lanes.git: own), else the person's .git/lfs.
    const laneCommon = git(l.cwd, s.env, 'rev-parse', '--path-format=absolute', '--git-common-dir');
    assert.equal(
      fs.readFileSync(path.join(laneCommon, 'lfs', 'tmp', 'post-commit-sb-confined'), 'utf8').trim(),
      l.git?.headSha,
    );
    assert.match(
      text,
      new RegExp(
        `^\\[svc\\] the sandbox refused a write \\(touch: cannot touch '${w.repo.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/refused-by-sandbox': Read-only file system\\): a workspace lane may write only its own worktree, `,
        'm',
      ),
    );
    assert.equal(git(w.repo, s.env, 'ls-remote', 'origin', 'refs/heads/sb/confined').split('\t')[0], l.git?.headSha);
    const show = (await ok(s.svc(['lane', 'show', 'sb-confined-builder-i1']))).stdout.split('\n');
    assert.equal(show[2], '    sandbox workspace: writes only its own worktree');

    // The process it left is in the sandbox's PID namespace: stopping the lane ends it.
    await eventually(() => sleepers().length > 0, 10_000, 'the left-behind sleep runs');
    await ok(s.svc(['lane', 'stop', 'sb-confined-builder-i1']));
    await eventually(() => sleepers().length === 0, 10_000, 'the left-behind sleep ended with the lane');
  });

  it('runs the same probes unconfined with --sandbox off, and says so', async () => {
    const brief = writeBrief(w.briefs, 'free.md', [
      ...probeSteps(w, sibling, 'free'),
      { run: buildAndReport('free.txt', 'work'), check: true },
    ]);
    await startLane(w, { run: 'sb', key: 'free', role: 'builder', model: 'm', brief, sandbox: 'off' });
    await ok(s.svc(['lane', 'wait', 'sb-free-builder-i1', '--timeout', '60']));
    const text = await log('sb-free-builder-i1');
    assert.deepEqual(probeResults(text), Object.fromEntries(PROBES.map((p) => [p, 'succeeded'])), text);
    for (const f of [
      path.join(s.home, 'free'),
      path.join(w.repo, 'free'),
      path.join(sibling, 'free'),
      path.join(w.repo, '.git', 'hooks', 'free'),
    ])
      fs.rmSync(f);
    git(w.repo, s.env, 'config', '--remove-section', 'svc');
    const l = await lane('sb-free-builder-i1');
    assert.equal(l.sandbox, 'off');
    assert.equal(l.report?.status, 'done');
    const show = (await ok(s.svc(['lane', 'show', 'sb-free-builder-i1']))).stdout.split('\n');
    assert.equal(show[2], '    sandbox off: unconfined, runs as you');
  });

  it('refuses a --sandbox that is neither workspace nor off', async () => {
    const r = await tryStartLane(s, {
      parent: w.rootId,
      run: 'sb',
      key: 'bad',
      role: 'builder',
      model: 'm',
      prompt: 'x',
      sandbox: 'none',
    });
    assert.equal(r.code, 1);
    assert.ok(r.stderr.startsWith("svc lane start: --sandbox is workspace or off, not 'none'\n"), r.stderr);
  });
});

/** PIDs of the `sleep 4242` a confined agent left behind. */
function sleepers(): number[] {
  const pids: number[] = [];
  for (const e of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      if (fs.readFileSync(`/proc/${e}/cmdline`, 'utf8') === 'sleep\u00004242\u0000') pids.push(Number(e));
    } catch {
      // gone
    }
  }
  return pids;
}

describe('sandbox: a workspace lane where bubblewrap is missing', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;
  let bin: string;

  before(async () => {
    s = makeScratch('sandbox-missing');
    // The daemon's PATH holds git and sh but no bwrap.
    bin = toolBin(s.root, 'bin-without-bwrap');
    s.env.PATH = [BIN_DIR, bin].join(path.delimiter);
    w = await laneWorld(s);
  });
  after(async () => s.dispose());

  it('fails to start with the reason and the fix, never unconfined', async () => {
    const r = await tryStartLane(w, { run: 'nb', key: 'k', role: 'builder', model: 'm', prompt: 'hi' });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      "lane nb-k-builder-i1 failed to start: harness 'script': the lane's sandbox (workspace) cannot start: bubblewrap (bwrap) is not installed or not on the daemon's PATH; install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) or run the lane unconfined with --sandbox off (per role: gauntlet.roles.<role>.sandbox: off)\n",
    );
    const lanes = JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'nb', '--json']))).stdout) as LaneRecord[];
    assert.equal(lanes[0].activity, 'failed-to-start');
    assert.equal(lanes[0].sandbox, 'workspace');
    // --sandbox off is the explicit way to run it there.
    await startLane(w, { run: 'nb', key: 'off', role: 'builder', model: 'm', prompt: 'hi', sandbox: 'off' });
  });
});

describe('sandbox: a workspace lane where AppArmor restricts user namespaces (Ubuntu 24.04+, Debian 13)', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;
  let bwrap: string;

  before(async () => {
    s = makeScratch('sandbox-apparmor');
    // A bwrap that fails as AppArmor makes the real one fail; git and sh as usual.
    const bin = toolBin(s.root, 'bin-apparmor');
    bwrap = path.join(bin, 'bwrap');
    fs.writeFileSync(bwrap, "#!/bin/sh\necho 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n", {
      mode: 0o755,
    });
    s.env.PATH = [BIN_DIR, bin].join(path.delimiter);
    w = await laneWorld(s);
  });
  after(async () => s.dispose());

  it('fails to start naming AppArmor, with the profile for bwrap first and then the sysctl', async () => {
    const r = await tryStartLane(w, { run: 'aa', key: 'k', role: 'builder', model: 'm', prompt: 'hi' });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      "lane aa-k-builder-i1 failed to start: harness 'script': the lane's sandbox (workspace) cannot start: AppArmor restricts unprivileged user namespaces here, so bubblewrap cannot create the sandbox (bwrap: setting up uid map: Permission denied); " +
        `let bubblewrap alone use user namespaces with an AppArmor profile: printf 'abi <abi/4.0>,\\ninclude <tunables/global>\\nprofile bwrap ${bwrap} flags=(unconfined) {\\n  userns,\\n}\\n' | sudo tee /etc/apparmor.d/bwrap && sudo apparmor_parser -r /etc/apparmor.d/bwrap; ` +
        'or allow them for every program: sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 (add it to /etc/sysctl.d/ to keep it); or run the lane unconfined with --sandbox off (per role: gauntlet.roles.<role>.sandbox: off)\n',
    );
    const doctor = (await s.svc(['doctor'])).stdout;
    assert.match(doctor, /AppArmor restricts unprivileged user namespaces here/, doctor);
    assert.ok(doctor.includes(`profile bwrap ${bwrap} flags=(unconfined)`), doctor);
  });
});
