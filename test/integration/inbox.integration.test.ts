// `svc inbox` through the real daemon and the script harness: each item kind appears and
// disappears at read time as its cause comes and goes; answering from the inbox unblocks
// the agent; a stall appears past the role's stall_after (test-shortened in projects.yaml,
// the daemon's test clock moved past it) and clears on output.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { InboxItem, InboxListResult } from '../../shared/protocol/inbox';
import type { LaneRecord } from '../../shared/protocol/lanes';
import { laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { advanceClock } from '../helpers/rpc';
import { eventually, makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { scriptBlock, writeBrief } from '../helpers/scriptBrief';

describe('svc inbox', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async () => {
    s = makeScratch('inbox');
    w = await laneWorld(s);
    fs.appendFileSync(
      path.join(s.svcHome, 'projects.yaml'),
      '    gauntlet:\n      roles:\n        builder:\n          stall_after: 2m\n',
    );
  });
  after(async () => s.dispose());

  const read = async (): Promise<InboxListResult> =>
    JSON.parse((await ok(s.svc(['inbox', '--json']))).stdout) as InboxListResult;
  const item = async (id: string): Promise<InboxItem | undefined> => (await read()).items.find((i) => i.id === id);
  const until = (what: string, holds: () => Promise<boolean>) => eventually(holds, 60_000, what);
  const lane = async (name: string): Promise<LaneRecord> => {
    const l = (JSON.parse((await ok(s.svc(['lane', 'list', '--json']))).stdout) as LaneRecord[]).find(
      (x) => x.name === name,
    );
    assert.ok(l, `lane ${name} listed`);
    return l;
  };
  const gate = (name: string) => path.join(s.home, `gate-${name}`);
  const waitFor = (name: string) => `while [ ! -e ${gate(name)} ]; do sleep 0.1; done`;

  it('says nothing waits when nothing does', async () => {
    const r = await ok(s.svc(['inbox']));
    assert.equal(r.stdout, 'Nothing waits on you.\n');
    assert.match(r.stderr, /^next: svc inbox --wait --after \d+\n$/);
  });

  it('a needs-you request: listed with its choices and command; answered from the inbox, the agent goes on', async () => {
    // The cursor from before the conversation exists: a cursor read after `conv new` may
    // already be past the ask (under load the agent asks first), and then nothing is new.
    const cursor = (await read()).cursor;
    const created = await ok(
      s.svc([
        'conv',
        'new',
        '--project',
        'proj',
        '--harness',
        'script',
        '--model',
        'm',
        '--title',
        'asker',
        '--prompt',
        scriptBlock([{ ask: 'Deploy now?' }, { say: 'deployed' }]),
        '--no-wait',
        '--json',
      ]),
    );
    const id = (JSON.parse(created.stdout) as { conversation: { id: number } }).conversation.id;
    // --wait from before the ask returns once it is open.
    const waited = await s.svc(['inbox', '--wait', '--after', cursor, '--timeout', '60', '--json']);
    assert.equal(waited.code, 0, waited.stderr);
    const r = JSON.parse(waited.stdout) as InboxListResult;
    assert.equal(r.outcome, 'new');
    const ask = r.items.find((i) => i.id === `ask-${id}`);
    assert.ok(ask, 'the ask is in the inbox');
    assert.deepEqual(
      { ...ask, since: 0 },
      {
        id: `ask-${id}`,
        kind: 'needs-you',
        since: 0,
        conversation: { id, name: 'asker' },
        lane: null,
        run: null,
        project: 'proj',
        host: null,
        title: 'permission: Deploy now?',
        lines: [],
        choices: [
          { id: 'allow', name: 'Allow' },
          { id: 'deny', name: 'Deny' },
        ],
        command: `svc inbox answer ask-${id} --option <allow|deny>`,
      },
    );
    const text = (await ok(s.svc(['inbox']))).stdout;
    assert.match(
      text,
      new RegExp(
        `\\nask-${id}  needs-you · \\d+s · #${id} asker · proj\\n  permission: Deploy now\\?\\n  choices: allow \\(Allow\\), deny \\(Deny\\)\\n  → svc inbox answer ask-${id} --option <allow\\|deny>\\n`,
      ),
    );
    // A wrong answer kind is refused and changes nothing.
    const wrong = await s.svc(['inbox', 'answer', `ask-${id}`, '--budget', '3']);
    assert.equal(wrong.code, 1);
    assert.equal(
      wrong.stderr,
      `inbox item ask-${id} is a needs-you item: it takes --allow, --deny, --option <id> or --text <answer> (its command: see svc inbox)\n`,
    );
    assert.ok(await item(`ask-${id}`));

    assert.equal(
      (await ok(s.svc(['inbox', 'answer', `ask-${id}`, '--option', 'allow']))).stdout,
      `Answered ask-${id} (#${id} asker): permission "Deploy now?"\n`,
    );
    assert.equal(await item(`ask-${id}`), undefined, 'gone once answered');
    await until('the agent went on and said deployed', async () =>
      /\ndeployed\n$/.test((await ok(s.svc(['conv', 'log', String(id)]))).stdout),
    );
    const again = await s.svc(['inbox', 'answer', `ask-${id}`, '--allow']);
    assert.equal(again.code, 1);
    assert.equal(
      again.stderr,
      `no inbox item 'ask-${id}' is waiting (it may have been answered or its cause gone; see svc inbox)\n`,
    );
  });

  it('a failed start: listed with its cause until the conversation is archived', async () => {
    const r = await s.svc([
      'conv',
      'new',
      '--project',
      'proj',
      '--harness',
      'claude',
      '--model',
      'opus',
      '--title',
      'no claude',
      '--prompt',
      'hi',
    ]);
    assert.equal(r.code, 1);
    const id = Number(/^Conversation #(\d+) /.exec(r.stdout)?.[1]);
    const failed = await item(`failed-${id}`);
    assert.ok(failed);
    assert.equal(failed.kind, 'failed-start');
    assert.equal(failed.title, `failed to start: ${r.stderr.trimEnd()}`);
    assert.equal(failed.command, 'svc conv resume no-claude');
    await ok(s.svc(['conv', 'archive', String(id)]));
    assert.equal(await item(`failed-${id}`), undefined);
  });

  it('a blocked report: its first lines until the lane reports again', async () => {
    const brief = writeBrief(w.briefs, 'ruling.md', [
      {
        run: "printf 'RULING: keep the old API or break it?\\n\\nOption A keeps it.\\nOption B breaks it.\\nMore detail that stays out.\\n' | svc lane report --stdin --status blocked --allow-unpushed",
      },
      { run: waitFor('ruling') },
      { run: "printf 'done\\n' | svc lane report --stdin --allow-unpushed" },
    ]);
    const l = await startLane(w, { run: 'ib', key: 'r', role: 'builder', model: 'm', brief });
    await until('the blocked report is in', async () => (await item(`blocked-${l.id}`)) !== undefined);
    const b = (await item(`blocked-${l.id}`))!;
    assert.deepEqual(
      [b.kind, b.lane, b.run, b.title, b.lines, b.command],
      [
        'blocked',
        l.name,
        'ib',
        'blocked: RULING: keep the old API or break it?',
        ['Option A keeps it.', 'Option B breaks it.'],
        `svc tell ${l.name} <your ruling>`,
      ],
    );
    fs.writeFileSync(gate('ruling'), '');
    await until('gone once the lane reported done', async () => (await item(`blocked-${l.id}`)) === undefined);
  });

  it('a spend hold: listed with the SPEND report; raised from the inbox, the lane goes on and it is gone', async () => {
    const brief = writeBrief(w.briefs, 'spender.md', [{ say: 'working' }, { cost: 0.6 }, { sleep: 60_000 }]);
    const l = await startLane(w, { run: 'is', key: 's', role: 'builder', model: 'm', brief, budget: '0.5' });
    await until('held at the cap', async () => (await item(`spend-${l.id}`)) !== undefined);
    const h = (await item(`spend-${l.id}`))!;
    assert.equal(h.kind, 'spend');
    assert.equal(h.title, `held at its spend cap: ${(await lane(l.name)).budget.text}`);
    assert.equal(
      h.lines[0],
      `SPEND: Lane ${l.name} reached its spend cap: spent $0.60 of $0.50, its own cap (--budget or svc lane budget).`,
    );
    assert.equal(h.command, `svc inbox answer spend-${l.id} --budget <usd>`);
    assert.equal(await item(`blocked-${l.id}`), undefined, 'a SPEND report is the hold, not a second item');
    const raised = await ok(s.svc(['inbox', 'answer', `spend-${l.id}`, '--budget', '2']));
    assert.equal(
      raised.stdout,
      `Spend cap of lane ${l.name}: $2.00 (spent $0.60)\n${l.name} may take turns again; it was told to carry on\n`,
    );
    assert.equal(await item(`spend-${l.id}`), undefined);
    await ok(s.svc(['lane', 'stop', l.name]));
  });

  it("a stall: past the role's stall_after with no output, listed; output clears it; the activity stays working", async () => {
    const brief = writeBrief(w.briefs, 'staller.md', [{ run: waitFor('stall-1') }, { run: waitFor('stall-2') }]);
    const l = await startLane(w, { run: 'st', key: 'q', role: 'builder', model: 'm', brief });
    await until('working', async () => (await lane(l.name)).activity === 'working');
    assert.equal(await item(`stalled-${l.id}`), undefined, 'not before stall_after');
    await advanceClock(s.svcHome, 3 * 60_000);
    const st = await item(`stalled-${l.id}`);
    assert.ok(st, 'stalled past stall_after');
    assert.equal(st.kind, 'stalled');
    assert.match(st.title, /^stalled: working, no output or tool activity for 3m$/);
    assert.deepEqual(st.lines, [`stall_after 2m; see what it did last: svc conv log ${l.name}`]);
    assert.equal(st.command, `svc lane stop ${l.name}`);
    assert.equal((await lane(l.name)).activity, 'working', 'a stall is a fact beside the activity');
    fs.writeFileSync(gate('stall-1'), '');
    await until('output cleared the stall', async () => (await item(`stalled-${l.id}`)) === undefined);
    assert.equal((await lane(l.name)).activity, 'working');
    fs.writeFileSync(gate('stall-2'), '');
  });

  it('--wait with nothing new times out with exit 3', async () => {
    const r = await s.svc(['inbox', '--wait', '--timeout', '1']);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /^next: svc inbox --wait --after \d+\n$/);
  });
});
