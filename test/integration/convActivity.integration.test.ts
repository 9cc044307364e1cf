// Every activity of the spec's table, produced by the script harness and read through
// `svc status --json` and `svc conv show`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { convScratch, script, SCRIPT_AGENT } from './convSupport';
import type { ConvScratch } from './convSupport';

const NODE = process.execPath;

describe('conversation activity through the script harness', function () {
  this.timeout(60_000);
  let s: ConvScratch;

  before(async () => {
    s = await convScratch('conv-activity', {
      config: [
        'harnesses:',
        '  slow:',
        `    command: ${NODE}`,
        `    args: [${SCRIPT_AGENT}]`,
        "    env: {SVC_SCRIPT_INIT_DELAY_MS: '5000'}",
        '  dies:',
        `    command: ${NODE}`,
        `    args: [${SCRIPT_AGENT}]`,
        '    env: {SVC_SCRIPT_EXIT_BEFORE: session/new}',
        '  paid:',
        `    command: ${NODE}`,
        `    args: [${SCRIPT_AGENT}]`,
        "    env: {SVC_SCRIPT_COST_PER_TURN: '0.25'}",
        '  script:',
        '    scripts:',
        "      'reviewer-*': scripts/review.yaml",
        '',
      ].join('\n'),
    });
    fs.mkdirSync(path.join(s.svcHome, 'scripts'));
    fs.writeFileSync(
      path.join(s.svcHome, 'scripts', 'review.yaml'),
      '- say: reviewed from the scripts file\n- run: echo "$SVC_CONVERSATION"\n',
    );
  });
  after(async () => s?.dispose());

  const statusOf = async (id: number) => {
    const a = (await s.status()).find((x) => x.id === id);
    assert.ok(a, `#${id} in svc status --json`);
    return a;
  };

  it('starting: an agent slow to initialize reads starting, then idle', async () => {
    const out = await s.ok([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      'slow',
      '--model',
      'm1',
      '--prompt',
      'hello',
      '--no-wait',
      '--json',
    ]);
    const id = JSON.parse(out).conversation.id as number;
    const st = await statusOf(id);
    assert.equal(st.activity, 'starting');
    assert.equal(st.alive, false);
    assert.equal(await s.activity(id), 'starting');
    const idle = await s.waitActivity(id, 'idle');
    assert.equal(idle.alive, true);
    assert.equal((await statusOf(id)).activity, 'idle');
  });

  it('working during a sleep step, idle after the turn', async () => {
    const id = await s.start(script('- say: begin', '- sleep: 2500', '- say: end'));
    await s.waitActivity(id, 'working');
    const st = await statusOf(id);
    assert.deepEqual([st.activity, st.alive, st.kind, st.harness, st.model], ['working', true, 'root', 'script', 'm1']);
    await s.waitActivity(id, 'idle');
    assert.equal((await statusOf(id)).activity, 'idle');
    assert.match(await s.log(id), /\nbegin\nend\n$/);
  });

  it('needs-you on an ask step, working again after svc conv answer --allow, then idle', async () => {
    const id = await s.start(script('- ask: Deploy now?', '- sleep: 2000', '- say: deployed'));
    const info = await s.waitActivity(id, 'needs-you');
    assert.deepEqual(
      { ...info.ask, openedAt: 0 },
      {
        kind: 'permission',
        title: 'Deploy now?',
        options: [
          { id: 'allow', name: 'Allow', kind: 'allow_once' },
          { id: 'deny', name: 'Deny', kind: 'reject_once' },
        ],
        fields: [],
        openedAt: 0,
      },
    );
    assert.equal((await statusOf(id)).activity, 'needs-you');
    assert.equal(
      await s.ok(['conv', 'answer', String(id), '--allow']),
      `Answered #${id} (${info.name}): permission "Deploy now?"\n`,
    );
    assert.equal(await s.activity(id), 'working');
    assert.equal((await statusOf(id)).activity, 'working');
    await s.waitActivity(id, 'idle');
    assert.match(await s.log(id), /\? Deploy now\?\n→ Allow \(allow\)\ndeployed\n$/);
  });

  it('a denied ask skips to the end of the script; a second answer is refused', async () => {
    const id = await s.start(script('- ask: Delete everything?', '- say: deleted'));
    await s.waitActivity(id, 'needs-you');
    await s.ok(['conv', 'answer', `#${id}`, '--deny']);
    const idle = await s.waitActivity(id, 'idle');
    assert.doesNotMatch(await s.log(id), /^deleted$/m);
    const again = await s.svc(['conv', 'answer', String(id), '--allow']);
    assert.equal(again.code, 1);
    assert.equal(again.stderr, `conversation #${id} (${idle.name}) has no open request to answer\n`);
  });

  it('stopped after an exit step', async () => {
    const id = await s.start(script('- say: bye', '- exit: 0'));
    const info = await s.waitActivity(id, 'stopped');
    assert.equal(info.alive, false);
    assert.equal((await statusOf(id)).activity, 'stopped');
    const ended = await s.show(id);
    assert.equal(ended.exitStatus, 'exit 0');
  });

  it('stopped after svc conv stop', async () => {
    const out = await s.ok([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      'script',
      '--model',
      'm1',
      '--title',
      'to stop',
      '--prompt',
      'hello',
    ]);
    const m = /^Conversation #(\d+) \(to-stop\) in (.+)\n$/.exec(out);
    assert.ok(m, out);
    assert.equal(m[2], s.proj);
    const id = Number(m[1]);
    await s.waitActivity(id, 'idle');
    assert.equal(await s.ok(['conv', 'stop', 'to-stop']), `Stopped #${id} (to-stop)\n`);
    assert.equal(await s.activity(id), 'stopped');
    assert.equal((await statusOf(id)).alive, false);
  });

  it('svc status reports cost where the agent reports usage', async () => {
    await s.ok([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      'paid',
      '--model',
      'm1',
      '--title',
      'paid one',
      '--prompt',
      'hello',
    ]);
    const info = await s.waitActivity('paid-one', 'idle');
    const byId = async () => (await s.status()).find((a) => a.id === info.id)!;
    assert.deepEqual((await byId()).cost, { amount: 0.25, currency: 'USD' });
    await s.ok(['tell', 'paid-one', 'again']);
    await s.waitActivity('paid-one', 'idle');
    assert.deepEqual((await byId()).cost, { amount: 0.5, currency: 'USD' });
    const free = await s.start('free of charge');
    await s.waitActivity(free, 'idle');
    assert.equal((await statusOf(free)).cost, null);
  });

  it("a prompt without a block runs the script of the first scripts: glob matching the conversation's name", async () => {
    const id = await s.start('Please review the change.', ['--title', 'reviewer one']);
    await s.waitActivity(id, 'idle');
    assert.match(
      await s.log(id),
      new RegExp(
        `> Please review the change\\.\\nreviewed from the scripts file\\n\\$ echo "\\$SVC_CONVERSATION"\\n${id}\\n$`,
      ),
    );
    const other = await s.start('Please review too.', ['--title', 'writer one']);
    await s.waitActivity(other, 'idle');
    assert.match(await s.log(other), /\nscript agent \(m1\): no svc-script block in: Please review too\.\n$/);
  });

  it('failed-to-start for a missing binary, with the cause and the fix', async () => {
    const r = await s.svc([
      'conv',
      'new',
      '--project',
      'p1',
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
    const id = Number(/^Conversation #(\d+) \(no-claude\) in /.exec(r.stdout)?.[1]);
    assert.equal(
      r.stderr,
      "harness 'claude': command 'claude-agent-acp' not found on PATH; install @agentclientprotocol/claude-agent-acp or set harnesses.claude.command in ~/.svc/config.yaml\n",
    );
    const info = await s.show(id);
    assert.equal(info.activity, 'failed-to-start');
    assert.equal(info.spawnError, r.stderr.trimEnd());
    assert.equal((await statusOf(id)).activity, 'failed-to-start');
  });

  it('failed-to-start for an agent that dies before session/new, quoting its stderr', async () => {
    const r = await s.svc([
      'conv',
      'new',
      '--project',
      'p1',
      '--harness',
      'dies',
      '--model',
      'm1',
      '--title',
      'dies early',
      '--prompt',
      'hi',
    ]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `harness 'dies': '${NODE} ${SCRIPT_AGENT}' exited (exit 3) before session/new answered; check harnesses.dies in ~/.svc/config.yaml; its stderr ended with:\nscript agent: exiting before answering session/new (SVC_SCRIPT_EXIT_BEFORE)\n`,
    );
    const id = Number(/^Conversation #(\d+) /.exec(r.stdout)?.[1]);
    assert.equal(await s.activity(id), 'failed-to-start');
    assert.equal((await statusOf(id)).activity, 'failed-to-start');
  });
});
