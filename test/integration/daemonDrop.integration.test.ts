// A daemon that dies, or is stopped, while a `svc` command waits for its answer: the
// command exits non-zero and says whether its action may have happened and how to
// check. Never a silent exit 0 (an orchestrator would read `lane wait` as "done").
import * as assert from 'node:assert/strict';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { lanesReport } from '../../shared/protocol/lanes';
import { daemonPids, discoveryOf } from '../helpers/daemonProcs';
import { laneStartArgs, laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { rpcRequest } from '../helpers/rpc';
import { eventually, makeScratch, sleep } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';
import { CallerCredentials } from '../../server/conversations/callerCredential';
import { CALLER_TOKEN_PARAM } from '../../shared/protocol/rpc';

describe('daemon drop: a lost connection is never a success', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;
  let lane: LaneRecord;

  before(async () => {
    s = makeScratch('daemonDrop');
    w = await laneWorld(s);
    await startLane(w, {
      run: 'dr',
      key: 'k',
      role: 'builder',
      model: 'm',
      brief: writeBrief(w.briefs, 'idle.md', [{ say: 'ready' }]),
    });
    lane = (JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as LaneRecord[]).find(
      (l) => l.name === 'dr-k-builder-i1',
    )!;
  });
  after(async () => s.dispose());

  /** Starts `args`, waits until the daemon holds its request, then runs `cut`. */
  async function cutWhileWaiting(args: string[], cut: (pid: number) => Promise<void> | void) {
    const { pid } = discoveryOf(s);
    const pending = s.svc(args);
    await sleep(1500); // the shim connects and sends within this time; the wait stays pending
    await cut(pid);
    return pending;
  }

  it('svc lane wait exits 1, not 0, when the daemon is killed (SIGKILL) while it waits', async () => {
    const r = await cutWhileWaiting(
      ['lane', 'wait', 'dr-k-builder-i1', '--timeout', '100'],
      (pid) => void process.kill(pid, 'SIGKILL'),
    );
    assert.equal(r.code, 1, `stdout: ${r.stdout}\nstderr: ${r.stderr}`);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      'svc: the connection to the daemon closed before it answered lanes/wait (the daemon stopped or died); nothing was changed, so run the same command again.\n',
    );
    await eventually(() => daemonPids(s.svcHome).length === 0, 10_000, 'the killed daemon to be gone');
  });

  it('svc conv log --follow exits 1 when the daemon dies while it follows', async () => {
    await ok(s.svc(['daemon', 'status']));
    const made = await ok(
      s.svc([
        'conv',
        'new',
        '--project',
        'proj',
        '--harness',
        'script',
        '--model',
        'm',
        '--json',
        '--prompt',
        writeBriefText(),
      ]),
    );
    const id = (JSON.parse(made.stdout) as { conversation: { id: number } }).conversation.id;
    const r = await cutWhileWaiting(
      ['conv', 'log', String(id), '--follow'],
      (pid) => void process.kill(pid, 'SIGKILL'),
    );
    assert.equal(r.code, 1, `stdout: ${r.stdout}\nstderr: ${r.stderr}`);
    assert.match(
      r.stderr,
      /svc: the connection to the daemon closed before it answered conversations\/log .*run the same command again\.\n$/,
    );
  });

  it('a state-changing request cut off says it may have happened and names the check', async () => {
    await ok(s.svc(['daemon', 'status']));
    // A launch whose lane sleeps: `lane start` waits for it to start, and is cut meanwhile.
    const sleeper = writeBrief(w.briefs, 'sleep.md', [{ sleep: 60_000 }]);
    const r = await cutWhileWaiting(
      laneStartArgs({
        parent: w.rootId,
        harness: 'script',
        run: 'cut',
        key: 'k',
        role: 'builder',
        model: 'm',
        brief: sleeper,
      }),
      (pid) => void process.kill(pid, 'SIGKILL'),
    );
    if (r.code === 0) {
      // The answer came before the kill: then the lane must be stored.
      assert.match(r.stdout, /^Lane cut\/k builder i1: /);
    } else {
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        'svc: the connection to the daemon closed before it answered lanes/start (the daemon stopped or died); the action may or may not have happened: check with `svc lane list --run cut` before trying again.\n',
      );
    }
  });

  it('a report filed twice under one request id is stored once', async () => {
    await ok(s.svc(['daemon', 'status']));
    const report = {
      caller: String(lane.id),
      status: 'blocked' as const,
      body: 'BLOCKED on a decision\n',
      requestId: 'retry-0123456789',
    };
    // as the lane's shim sends it: with the lane's credential
    const params = {
      ...report,
      [CALLER_TOKEN_PARAM]: new CallerCredentials(s.svcHome).tokenFor(lane.id),
    } as typeof report;
    const first = await rpcRequest(s.svcHome, lanesReport, params);
    const again = await rpcRequest(s.svcHome, lanesReport, params);
    assert.deepEqual(again, first);
    const other = await rpcRequest(s.svcHome, lanesReport, { ...params, requestId: 'retry-other-0001' });
    assert.equal(other.report.seq, first.report.seq + 1);
    // Nothing between them: the report after the first is the other one, and none follows.
    const next = await s.svc([
      'lane',
      'wait',
      'dr-k-builder-i1',
      '--after',
      String(first.report.seq),
      '--timeout',
      '1',
    ]);
    assert.equal(next.code, 4);
    assert.equal(
      next.stderr,
      `dr-k-builder-i1 reported blocked\nnext: svc lane wait dr-k-builder-i1 --after ${other.report.seq}\n`,
    );
    const none = await s.svc([
      'lane',
      'wait',
      'dr-k-builder-i1',
      '--after',
      String(other.report.seq),
      '--timeout',
      '1',
    ]);
    assert.equal(
      none.stderr,
      `dr-k-builder-i1 exited without a report\nnext: svc lane wait dr-k-builder-i1 --after ${other.report.seq}\n`,
    );
  });
});

function writeBriefText(): string {
  return 'Sleep a while.\n\n```svc-script\n- sleep: 60000\n```\n';
}
