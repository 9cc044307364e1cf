// The sandbox on another host, from outside (real sshd on 127.0.0.1; a dedicated user's home
// is the other machine): a lane there runs under the host's bubblewrap by default. Its agent
// tries to write the host user's home, a sibling lane's worktree, the lanes root, the hooks/
// and config of the clone svc keeps there, and to read svc's own folder there (the other
// agents' run folders and environment files): each fails, and the same agent commits,
// pushes and reports done. The same probes in a `--sandbox off` lane succeed, so the test can
// fail. A host without bubblewrap says so in `svc host check`, and a workspace lane there
// fails to start with the reason and the fix.
import * as assert from 'node:assert/strict';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { repoIdOf } from '../../server/hosts/hostLink';
import { buildAndReport, ok, startLane, tryStartLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { git } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import type { Step } from '../helpers/scriptBrief';
import type { Sshd } from '../helpers/sshd';
import { remoteLaneWorld } from '../helpers/remoteLaneWorld';
import type { RemoteLaneWorld } from '../helpers/remoteLaneWorld';

const PROBES = ['home', 'sibling', 'lanes root', 'hooks', 'config', 'svc runtime'] as const;

describe('sandbox on a host: a lane there can change only its own worktree (real sshd)', function () {
  this.timeout(300_000);
  let s: Scratch;
  let d: Sshd;
  let w: LaneWorld;
  let root: string;
  let world: RemoteLaneWorld;
  let clone: string;

  before(async function () {
    world = await remoteLaneWorld('sandbox-remote', {
      moreHosts: (sshd, lanesRoot) => ({
        nobwrap: {
          ssh: sshd.destination,
          lanes_root: lanesRoot,
          ssh_options: sshd.options.map((o) => (o.startsWith('Port=') ? `Port=${sshd.noBwrapPort}` : o)),
        },
      }),
    });
    ({ s, d, w, root } = world);
    clone = `${d.remoteHome}/.svc-host/repos/${repoIdOf('proj', w.origin)}.git`;
  });
  after(async () => world?.dispose());

  const lane = async (name: string): Promise<LaneRecord> => {
    const lanes = JSON.parse((await ok(s.svc(['lane', 'list', '--run', 'sr', '--json']))).stdout) as LaneRecord[];
    return lanes.find((l) => l.name === name)!;
  };
  const log = async (name: string) => (await ok(s.svc(['conv', 'log', name, '--lines', '400']))).stdout;
  const onHost = (script: string) => d.asRemote(script).trim();

  /** One step per probe: it prints `PROBE <name>: succeeded|failed` and never stops the script. */
  const probeSteps = (mark: string): Step[] => {
    const cmds: Record<(typeof PROBES)[number], string> = {
      home: `touch "$HOME/${mark}"`,
      sibling: `touch '${root}/sr-sib/${mark}'`,
      'lanes root': `touch '${root}/${mark}'`,
      hooks: `printf '#!/bin/sh\\n' > '${clone}/hooks/${mark}'`,
      config: `printf '[svc]\\n\\t${mark} = 1\\n' >> '${clone}/config'`,
      // The other agents' run folders and the environment files (their credentials) there.
      'svc runtime': `ls "$HOME/.svc-host/agents" "$HOME/.svc-host/env" > /dev/null`,
    };
    return PROBES.map((p) => ({
      run: `if ${cmds[p]} 2>/dev/null; then echo 'PROBE ${p}: succeeded'; else echo 'PROBE ${p}: failed'; fi`,
    }));
  };
  const probeResults = (text: string): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const m of text.matchAll(/^PROBE (.+): (succeeded|failed)$/gm)) out[m[1]] = m[2];
    return out;
  };

  it('runs a lane on the host sandboxed by default: every way out fails, and it commits, pushes and reports done', async () => {
    const idle = writeBrief(w.briefs, 'idle.md', [{ say: 'idle' }]);
    await startLane(w, { host: 'big', run: 'sr', key: 'sib', role: 'builder', model: 'm', brief: idle });
    const brief = writeBrief(w.briefs, 'confined.md', [
      ...probeSteps('confined'),
      { run: buildAndReport('confined.txt', 'work'), check: true },
    ]);
    await startLane(w, { host: 'big', run: 'sr', key: 'confined', role: 'builder', model: 'm', brief });
    const waited = await s.svc(['lane', 'wait', 'sr-confined-builder-i1', '--timeout', '120']);
    assert.equal(waited.code, 0, waited.stderr);
    assert.equal(waited.stdout, 'built it\n');

    const text = await log('sr-confined-builder-i1');
    assert.deepEqual(probeResults(text), Object.fromEntries(PROBES.map((p) => [p, 'failed'])), text);
    assert.equal(onHost(`ls -a "$HOME" ${root} ${root}/sr-sib ${clone}/hooks | grep -c -x confined || true`), '0');
    assert.doesNotMatch(onHost(`cat ${clone}/config`), /confined = 1/);

    const l = await lane('sr-confined-builder-i1');
    assert.equal(l.sandbox, 'workspace');
    assert.equal(l.host, 'big');
    assert.equal(l.report?.status, 'done');
    const head = onHost(`git -C ${root}/sr-confined rev-parse HEAD`);
    assert.equal(git(w.repo, s.env, 'ls-remote', 'origin', 'refs/heads/sr/confined').split('\t')[0], head);
    assert.equal(l.report?.headSha, head);
    const show = (await ok(s.svc(['lane', 'show', 'sr-confined-builder-i1']))).stdout.split('\n');
    assert.equal(show[2], '    sandbox workspace: writes only its own worktree');
  });

  it('runs the same probes unconfined on the host with --sandbox off, and says so', async () => {
    const brief = writeBrief(w.briefs, 'free.md', [
      ...probeSteps('free'),
      { run: buildAndReport('free.txt', 'work'), check: true },
    ]);
    await startLane(w, {
      host: 'big',
      run: 'sr',
      key: 'free',
      role: 'builder',
      model: 'm',
      brief,
      sandbox: 'off',
    });
    const waited = await s.svc(['lane', 'wait', 'sr-free-builder-i1', '--timeout', '120']);
    assert.equal(waited.code, 0, waited.stderr);
    const text = await log('sr-free-builder-i1');
    assert.deepEqual(probeResults(text), Object.fromEntries(PROBES.map((p) => [p, 'succeeded'])), text);
    onHost(
      `rm "$HOME/free" ${root}/free ${root}/sr-sib/free ${clone}/hooks/free && git --git-dir=${clone} config --remove-section svc`,
    );
    const l = await lane('sr-free-builder-i1');
    assert.equal(l.sandbox, 'off');
    assert.equal(l.report?.status, 'done');
    const show = (await ok(s.svc(['lane', 'show', 'sr-free-builder-i1']))).stdout.split('\n');
    assert.equal(show[2], '    sandbox off: unconfined, runs as you');
  });

  it('says in svc host check whether the host can sandbox its lanes, and why not', async () => {
    const good = await ok(s.svc(['host', 'check', 'big']));
    assert.match(
      good.stdout,
      /^ {2}ok {4}sandbox {5}bubblewrap \d+\.\d+\.\d+: lanes here run sandboxed \(workspace\)$/m,
    );
    const bad = await s.svc(['host', 'check', 'nobwrap']);
    assert.equal(bad.code, 1, bad.stdout);
    assert.match(
      bad.stdout,
      /^ {2}FAIL {2}sandbox {5}no bubblewrap \(bwrap\) on the login PATH of the host: workspace lanes cannot start there\n {20}fix: install bubblewrap on nobwrap \(apt-get install bubblewrap\), or run its lanes with --sandbox off \(per role: gauntlet\.roles\.<role>\.sandbox: off\)\n/m,
    );
  });

  it('fails to start a workspace lane on a host without bubblewrap, with the reason and the fix; --sandbox off runs it there', async () => {
    const r = await tryStartLane(w, {
      host: 'nobwrap',
      run: 'sr',
      key: 'nb',
      role: 'builder',
      model: 'm',
      prompt: 'hi',
    });
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      "lane sr-nb-builder-i1 failed to start: host nobwrap: the lane's sandbox (workspace) cannot start there: bubblewrap (bwrap) is not installed or not on the login PATH of the host; install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) or run the lane unconfined with --sandbox off (per role: gauntlet.roles.<role>.sandbox: off)\n",
    );
    const l = await lane('sr-nb-builder-i1');
    assert.equal(l.activity, 'failed-to-start');
    assert.equal(l.sandbox, 'workspace');
    const brief = writeBrief(w.briefs, 'nb.md', [{ run: buildAndReport('nb.txt', 'work'), check: true }]);
    await startLane(w, {
      host: 'nobwrap',
      run: 'sr',
      key: 'nb2',
      role: 'builder',
      model: 'm',
      brief,
      sandbox: 'off',
    });
    assert.equal((await s.svc(['lane', 'wait', 'sr-nb2-builder-i1', '--timeout', '120'])).code, 0);
  });
});
