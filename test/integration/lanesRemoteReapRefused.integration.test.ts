// A refused reap of a lane on another host changes nothing, the agent included (real
// sshd): a plain reap of a dirty tree is refused by the host before the stop door is used,
// and a reap refused while the host cannot be reached queues no stop that would land once
// svc reconnects. Its parked patches show in lane show and lane list --json.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { eventually } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import { controlDirOf } from '../helpers/sshd';
import type { Sshd } from '../helpers/sshd';
import { remoteLaneWorld } from '../helpers/remoteLaneWorld';
import type { RemoteLaneWorld } from '../helpers/remoteLaneWorld';

describe('lanes on another host: a refused reap stops nothing (real sshd)', function () {
  this.timeout(600_000);
  let s: Scratch;
  let d: Sshd;
  let w: LaneWorld;
  let root: string;
  let world: RemoteLaneWorld;

  before(async function () {
    world = await remoteLaneWorld('remote-reap');
    ({ s, d, w, root } = world);
  });
  after(async () => world?.dispose());

  const onHost = (script: string) => d.asRemote(script).trim();
  const lane = async (name: string) =>
    (JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as LaneRecord[]).find((l) => l.name === name)!;
  const conv = async (name: string) =>
    JSON.parse((await ok(s.svc(['conv', 'show', name, '--json']))).stdout) as ConversationInfo;
  /** The script agent's pids on the host whose working directory is `dir`. */
  const agentIn = (dir: string) =>
    onHost(
      `for p in /proc/[0-9]*; do [ "$(readlink $p/cwd 2>/dev/null)" = ${dir} ] && tr '\\0' ' ' < $p/cmdline | grep -v '^[^ ]*bwrap ' | grep -q scriptAgent.js && echo \${p#/proc/}; done; true`,
    )
      .split('\n')
      .filter(Boolean)
      .map(Number);

  it('a plain reap of a dirty tree on the host is refused before anything is stopped; --park then parks it and lane show names the patch', async () => {
    const idle = writeBrief(w.briefs, 'idle.md', [{ say: 'idle on the host' }]);
    await startLane(w, { host: 'big', run: 'rr', key: 'dirty', role: 'builder', model: 'm', brief: idle });
    const dir = `${root}/rr-dirty`;
    await eventually(async () => agentIn(dir).length === 1, 60_000, 'the agent on the host');
    const [agent] = agentIn(dir);
    onHost(`echo 'work in progress' > ${dir}/wip.txt`);
    const r = await s.svc(['lane', 'reap', 'rr-dirty-builder-i1']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.equal(
      r.stderr,
      `${dir} has uncommitted work (1 path); commit it, or reap with --park to save it to a patch\n  ?? wip.txt\n`,
    );
    assert.deepEqual(agentIn(dir), [agent], 'the agent still runs on the host');
    const c = await conv('rr-dirty-builder-i1');
    assert.equal(c.alive, true);
    assert.notEqual(c.activity, 'stopped');

    const parked = await ok(s.svc(['lane', 'reap', 'rr-dirty-builder-i1', '--park']));
    const patch = /^parked 1 path in (\S+)$/m.exec(parked.stdout)?.[1];
    assert.ok(patch, parked.stdout);
    const rec = await lane('rr-dirty-builder-i1');
    assert.equal(rec.parked.length, 1);
    assert.equal(rec.parked[0].patchFile, patch);
    // ssh with the host entry's options (this sshd is on its own port), so it works as printed.
    const ssh = ['ssh', ...d.options.flatMap((o) => ['-o', o]), d.destination].join(' ');
    assert.ok(rec.parked[0].restoreCommand?.startsWith(`${ssh} '`), rec.parked[0].restoreCommand ?? 'none');
    assert.match(rec.parked[0].restoreCommand ?? '', / '.*git -C .* worktree add .*'$/);
    const show = await ok(s.svc(['lane', 'show', 'rr-dirty-builder-i1']));
    assert.ok(
      show.stdout.includes(`\n    parked ${patch} (1 path)\n      restore with: ${rec.parked[0].restoreCommand}\n`),
      show.stdout,
    );
  });

  it('a reap refused while the host cannot be reached queues no stop: the agent still runs after svc reconnects', async () => {
    const idle = writeBrief(w.briefs, 'idle2.md', [{ say: 'idle on the host' }]);
    await startLane(w, { host: 'big', run: 'rr', key: 'cut', role: 'builder', model: 'm', brief: idle });
    const dir = `${root}/rr-cut`;
    await eventually(async () => agentIn(dir).length === 1, 60_000, 'the agent on the host');
    const [agent] = agentIn(dir);
    // The shared connection's master killed outright while sshd listens no more.
    const controlDir = controlDirOf(s.svcHome);
    const [control] = fs.readdirSync(controlDir);
    const check = spawnSync('ssh', ['-O', 'check', '-o', `ControlPath=${path.join(controlDir, control)}`, 'x'], {
      encoding: 'utf8',
    });
    const masterPid = Number(/pid=(\d+)/.exec(check.stderr)![1]);
    await d.pause();
    process.kill(masterPid, 'SIGKILL');
    await eventually(
      async () => (await conv('rr-cut-builder-i1')).hostLost ?? undefined,
      60_000,
      'the lane to show the lost connection',
    );

    const r = await s.svc(['lane', 'reap', 'rr-cut-builder-i1']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    await d.resume();
    await eventually(
      async () => ((await conv('rr-cut-builder-i1')).hostLost === null ? true : undefined),
      120_000,
      'svc to reconnect',
    );
    // A stop queued by the refused reap would reach the agent as soon as svc reattached.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    assert.deepEqual(agentIn(dir), [agent], 'the agent still runs on the host');
    const c = await conv('rr-cut-builder-i1');
    assert.deepEqual([c.alive, c.activity === 'stopped'], [true, false]);
    // Refused by the check before the stop door: the host's own refusal, not the stop's "until svc reconnects".
    assert.match(r.stderr, new RegExp(`^host big \\(${d.destination.replace(/[.]/g, '\\.')}\\) is unreachable \\(`));
    await ok(s.svc(['lane', 'reap', 'rr-cut-builder-i1']));
    assert.deepEqual(agentIn(dir), []);
  });
});
