// After the daemon stops (svc daemon stop --force) and starts again, the agents it stopped
// are one command away: `svc conv resume --all-stopped-by-daemon` resumes exactly those
// (not one the person stopped, not an archived one), and a needs-you request that was open
// at the stop is open again afterwards. A crash (kill -9) counts too; the bulk resume is a
// person's (an agent is refused), and it will not take a conversation id.
import * as assert from 'node:assert/strict';
import type { ConversationInfo } from '../../shared/protocol/conversations';
import { conversationsStoppedByDaemon } from '../../shared/protocol/stoppedByDaemon';
import { rpcRequest } from '../helpers/rpc';
import { alive, discoveryOf } from '../helpers/daemonProcs';
import { laneEnv } from '../helpers/laneEnv';
import { laneWorld, newScriptConversation, ok } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { eventually, makeScratch, sleep } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { scriptBlock } from '../helpers/scriptBrief';

describe('conv resume --all-stopped-by-daemon: the agents the daemon stopped, one command away', function () {
  this.timeout(120_000);
  let s: Scratch;
  let w: LaneWorld;
  let asker: number;
  let idle: number;
  let mine: number;

  const show = async (id: number) =>
    JSON.parse((await ok(s.svc(['conv', 'show', String(id), '--json']))).stdout) as ConversationInfo;
  const newConv = (title: string, prompt: string) => newScriptConversation(s, { title, prompt });
  const stoppedList = async () => (await rpcRequest(s.svcHome, conversationsStoppedByDaemon, {})).conversations;

  before(async () => {
    s = makeScratch('resumeStopped');
    w = await laneWorld(s);
    asker = await newConv('asker', scriptBlock([{ say: 'before' }, { ask: 'Deploy now?' }, { say: 'deployed' }]));
    idle = await newConv('idle', 'hello');
    mine = await newConv('mine', 'hello');
    await eventually(
      async () => (await show(asker)).activity === 'needs-you',
      30_000,
      'the asker waits on its request',
    );
    // Stopped by the person before the daemon stops: not the daemon's to resume.
    await ok(s.svc(['conv', 'stop', String(mine)]));
  });
  after(async () => s.dispose());

  it('refuses a conversation id with the flag, and an agent asking for it', async () => {
    const both = await s.svc(['conv', 'resume', String(idle), '--all-stopped-by-daemon']);
    assert.deepEqual(
      [both.code, both.stdout, both.stderr],
      [
        1,
        '',
        `svc conv resume: --all-stopped-by-daemon resumes every agent the daemon stopped; give it without a conversation, or resume '${idle}' alone with svc conv resume ${idle}\nsee svc conv resume --help\n`,
      ],
    );
    const agent = await s.svc(['conv', 'resume', '--all-stopped-by-daemon'], { env: laneEnv(s, { id: w.rootId }) });
    assert.equal(agent.code, 1);
    assert.match(agent.stderr, /^an agent may not resume every agent the daemon stopped/);
  });

  it('resumes exactly the agents the stop ended, and the open request comes back as needs-you', async () => {
    const pid = discoveryOf(s).pid;
    await ok(s.svc(['daemon', 'stop', '--force']));
    while (alive(pid)) await sleep(20);
    await ok(s.svc(['conv', 'list'])); // the person's next command starts the daemon
    const list = await stoppedList();
    assert.deepEqual(
      list.map((c) => [c.conversation.id, c.how, c.ask]),
      [
        [w.rootId, 'stopped', null],
        [asker, 'stopped', { kind: 'permission', title: 'Deploy now?' }],
        [idle, 'stopped', null],
      ],
    );
    assert.equal((await show(asker)).activity, 'stopped');

    const r = await s.svc(['conv', 'resume', '--all-stopped-by-daemon']);
    const line = (c: ConversationInfo) => `Resumed #${c.id} (${c.name}) in ${c.cwd}`;
    const [root, a, i] = [await show(w.rootId), await show(asker), await show(idle)];
    assert.deepEqual(
      [r.code, r.stdout, r.stderr],
      [0, `${line(root)}\n${line(a)}; handed its turn again to ask again: permission "Deploy now?"\n${line(i)}\n`, ''],
    );
    await eventually(async () => (await show(asker)).ask?.title === 'Deploy now?', 30_000, 'the request is open again');
    assert.equal((await show(asker)).activity, 'needs-you');
    await ok(s.svc(['conv', 'answer', String(asker), '--allow']));
    await eventually(
      async () => (await ok(s.svc(['conv', 'log', String(asker)]))).stdout.includes('deployed'),
      30_000,
      'the agent goes on once answered',
    );
    assert.equal((await show(mine)).activity, 'stopped', 'the one the person stopped stays stopped');
    assert.equal((await show(idle)).alive, true);

    const again = await s.svc(['conv', 'resume', '--all-stopped-by-daemon']);
    assert.deepEqual(
      [again.code, again.stdout, again.stderr],
      [0, 'No agent is stopped by the daemon: nothing to resume\n', ''],
    );
  });

  it('after a crash the agents the old daemon left are the ones resumed (--json)', async () => {
    const pid = discoveryOf(s).pid;
    process.kill(pid, 'SIGKILL');
    while (alive(pid)) await sleep(20);
    await ok(s.svc(['conv', 'list']));
    assert.deepEqual(
      (await stoppedList()).map((c) => [c.conversation.id, c.how]),
      [
        [w.rootId, 'restarted'],
        [asker, 'restarted'],
        [idle, 'restarted'],
      ],
    );
    const r = await ok(s.svc(['conv', 'resume', '--all-stopped-by-daemon', '--json']));
    const j = JSON.parse(r.stdout) as {
      resumed: { conversation: ConversationInfo; outcome: string }[];
      refused: unknown[];
    };
    assert.deepEqual(
      j.resumed.map((c) => [c.conversation.id, c.outcome]),
      [
        [w.rootId, 'alive'],
        [asker, 'alive'],
        [idle, 'alive'],
      ],
    );
    assert.deepEqual(j.refused, []);
    assert.deepEqual(await stoppedList(), []);
  });
});
