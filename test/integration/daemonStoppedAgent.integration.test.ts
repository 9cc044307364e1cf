// A daemon stopped on purpose stays stopped: an agent's `svc` call (its SVC_CONVERSATION
// set) after `svc daemon stop --force` refuses and says how to go on, instead of starting
// a new daemon behind the person's back. A daemon that crashed is started again by the
// same call (the report is not lost), and the person's own commands always start one.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { alive, daemonPids, discoveryOf } from '../helpers/daemonProcs';
import { laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { laneEnv } from '../helpers/laneEnv';
import { makeScratch, sleep } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import { rpcRequest } from '../helpers/rpc';
import { daemonStop } from '../../shared/protocol/daemon';

describe('daemon stopped on purpose: agents do not start it again', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;
  let lane: LaneRecord;

  before(async () => {
    s = makeScratch('daemonStoppedAgent');
    w = await laneWorld(s);
    await startLane(w, {
      run: 'st',
      key: 'one',
      role: 'builder',
      model: 'm',
      brief: writeBrief(w.briefs, 'wait.md', [{ sleep: 60_000 }]),
    });
    lane = (JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as LaneRecord[]).find(
      (l) => l.name === 'st-one-builder-i1',
    )!;
  });
  after(async () => s.dispose());

  /** `svc lane report` as the lane's agent runs it: in its worktree, with its conversation. */
  const report = (body: string) =>
    s.svc(['lane', 'report', '--stdin', '--status', 'blocked'], {
      env: laneEnv(s, lane),
      cwd: lane.cwd,
      input: `BLOCKED: ${body}\n`,
    });
  const marker = () => path.join(s.svcHome, 'daemon.stopped');

  it("an agent's call after `svc daemon stop --force` refuses, names the stop and the resume, and starts nothing", async () => {
    const stopped = discoveryOf(s).pid;
    await ok(s.svc(['daemon', 'stop', '--force']));
    while (alive(stopped)) await sleep(20);
    const stop = JSON.parse(fs.readFileSync(marker(), 'utf8')) as { reason: string; at: string; pid: number };
    assert.equal(stop.reason, 'svc daemon stop');
    assert.equal(stop.pid, stopped);

    const r = await report('late');
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      `the svc daemon is not running: it was stopped (svc daemon stop, at ${stop.at}) while this agent worked, and svc does not start it again from inside an agent (conversation #${lane.id}); the work stays in this worktree. The person starts svc again (any svc command outside an agent, or VS Code), and svc conv resume ${lane.id} continues this conversation\n`,
    );
    await sleep(500); // a daemon started anyway would have written server.json by now
    assert.deepEqual(daemonPids(s.svcHome), []);
    assert.equal(fs.existsSync(path.join(s.svcHome, 'server.json')), false);
  });

  it("the person's next command starts the daemon and clears the mark; the lane has no report", async () => {
    const list = JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as LaneRecord[];
    assert.equal(fs.existsSync(marker()), false);
    assert.equal(list.find((l) => l.name === lane.name)?.report, null);
  });

  it("after a crash (kill -9) the agent's call starts a daemon again and its report is stored", async () => {
    const crashed = discoveryOf(s).pid;
    process.kill(crashed, 'SIGKILL');
    while (alive(crashed)) await sleep(20);
    assert.equal(fs.existsSync(marker()), false);

    const filed = await report('after the crash');
    assert.deepEqual([filed.code, filed.stdout, filed.stderr], [4, `Report 1 filed for ${lane.name}: blocked\n`, '']); // 4: a blocked report
    const [pid] = daemonPids(s.svcHome);
    assert.notEqual(pid, crashed);
    const list = JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as LaneRecord[];
    assert.equal(list.find((l) => l.name === lane.name)?.report?.body, 'BLOCKED: after the crash\n');
  });

  it('an agent may still ask for a start in so many words: `svc daemon restart` after a stop starts one', async () => {
    const before = discoveryOf(s).pid;
    await ok(s.svc(['daemon', 'stop']));
    while (alive(before)) await sleep(20);
    assert.equal(fs.existsSync(marker()), true);
    const r = await ok(s.svc(['daemon', 'restart'], { env: laneEnv(s, lane), cwd: lane.cwd }));
    const after = discoveryOf(s).pid;
    assert.match(r.stdout, new RegExp(`^svc daemon started: pid ${after},`));
    assert.deepEqual(daemonPids(s.svcHome), [after]);
    assert.equal(fs.existsSync(marker()), false);
  });

  it("a client's stop reason reaches the agent escaped: no terminal control bytes", async () => {
    const before = discoveryOf(s).pid;
    await rpcRequest(s.svcHome, daemonStop, { reason: 'by \x1b[31mred\x07' });
    while (alive(before)) await sleep(20);
    const stop = JSON.parse(fs.readFileSync(marker(), 'utf8')) as { reason: string; at: string };
    assert.equal(stop.reason, 'by \\x1b[31mred\\x07');
    const r = await report('late again');
    assert.equal(r.code, 1);
    assert.ok(
      r.stderr.startsWith(
        `the svc daemon is not running: it was stopped (by \\x1b[31mred\\x07, at ${stop.at}) while this agent worked`,
      ),
      r.stderr,
    );
    assert.ok(![...r.stderr].some((c) => c < ' ' && c !== '\n'), 'a control byte reached the terminal');
  });
});
