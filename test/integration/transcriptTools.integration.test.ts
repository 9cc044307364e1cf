// How tool calls and messages of real agents read in `svc conv log`, `svc conv show` and
// the Conversation panel, exercised through the script harness speaking as they do:
// codex's terminal content with `_meta` output deltas (svc declares the delta key it
// renders), Claude's "Terminal" title named later, failed calls, messages without a
// trailing newline, and a cost of a fraction of a cent.
import * as assert from 'node:assert/strict';
import { foldTranscript } from '../../extension/conversations/transcriptItems';
import { transcriptRead } from '../../shared/protocol/transcript';
import type { TranscriptRowInfo } from '../../shared/protocol/transcript';
import { convScratch, rpc, script } from './convSupport';
import type { ConvScratch } from './convSupport';

describe('transcripts of tool calls and messages', function () {
  this.timeout(60_000);
  let s: ConvScratch;

  before(async () => {
    s = await convScratch('transcript-tools', {
      config: "harnesses:\n  script:\n    env: {SVC_SCRIPT_COST_PER_TURN: '0.000282'}\n",
    });
  });
  after(async () => s?.dispose());

  it('declares the terminal output key svc renders, and nothing it does not serve', async () => {
    const id = await s.start(script('- run: printf %s "$SCRIPT_CLIENT_CAPS"'), ['--title', 'caps']);
    await s.waitActivity(id, 'idle');
    const log = await s.log(id);
    const caps = JSON.parse(log.split('\n')[log.split('\n').indexOf('$ printf %s "$SCRIPT_CLIENT_CAPS"') + 1]);
    assert.deepEqual(caps._meta, { terminal_output_delta: true });
    assert.deepEqual(caps.elicitation, { form: {} });
    // svc serves no terminal/* or fs/* methods: agents run commands in their own shell.
    assert.notEqual(caps.terminal, true);
    assert.ok(!caps.fs || (!caps.fs.readTextFile && !caps.fs.writeTextFile), JSON.stringify(caps));
  });

  it('shows terminal output, later titles, failed commands and separate messages in conv log and the panel', async () => {
    const prompt = script(
      '- say: Looking.',
      '  newline: false',
      '- say: Still looking.',
      '  newline: false',
      "- run: printf 'one\\n'; sleep 0.2; printf 'two\\n'",
      '  show: terminal',
      '- run: echo late',
      '  show: late-title',
      '- run: echo broken >&2; exit 3',
      '  show: terminal',
      '- run: exit 4',
      '- say: Done.',
      '  newline: false',
    );
    const id = await s.start(prompt, ['--title', 'tools']);
    await s.waitActivity(id, 'idle');
    const log = await s.log(id);
    const after = log.slice(log.indexOf('```\n') + 4);
    assert.equal(
      after,
      [
        'Looking.',
        'Still looking.',
        "$ printf 'one\\n'; sleep 0.2; printf 'two\\n'",
        'one',
        'two',
        '$ echo late',
        'late',
        '$ echo broken >&2; exit 3',
        'broken',
        '(failed: echo broken >&2; exit 3, exit 3)',
        '$ exit 4',
        '(failed: exit 4, exit 4)',
        'Done.',
        '',
      ].join('\n'),
    );

    const c = await rpc(s);
    let rows: TranscriptRowInfo[];
    try {
      rows = (await c.sendRequest<{ rows: TranscriptRowInfo[] }>(transcriptRead.method, { conv: String(id) })).rows;
    } finally {
      c.end();
    }
    const items = foldTranscript(rows).filter((i) => i.kind === 'message' || i.kind === 'tool');
    assert.deepEqual(
      items.map((i) => (i.kind === 'tool' ? [i.title, i.status, i.output, i.outcome] : i.text)),
      [
        'Looking.',
        'Still looking.',
        ["printf 'one\\n'; sleep 0.2; printf 'two\\n'", 'completed', 'one\ntwo\n', null],
        ['echo late', 'completed', 'late\n', null],
        ['echo broken >&2; exit 3', 'failed', 'broken\n', 'exit 3'],
        ['exit 4', 'failed', '', 'exit 4'],
        'Done.',
      ],
    );
  });

  it('follows a terminal command as it runs: the output of a call started in an earlier batch appends', async () => {
    const id = await s.start(script("- run: printf 'first\\n'; sleep 1.5; printf 'second\\n'", '  show: terminal'), [
      '--title',
      'follow',
    ]);
    const following = s.svc(['conv', 'log', String(id), '--follow', '--lines', '100']);
    await s.waitActivity(id, 'idle');
    await s.ok(['conv', 'stop', String(id)]);
    const r = await following;
    assert.equal(r.code, 0, r.stderr);
    // Whatever the batches were, the call is named once and its output is whole.
    const tail = r.stdout.slice(r.stdout.indexOf("$ printf 'first"));
    assert.equal(
      tail.split('\n').slice(0, 3).join('\n'),
      "$ printf 'first\\n'; sleep 1.5; printf 'second\\n'\nfirst\nsecond",
    );
  });

  it('prints a cost of a fraction of a cent as money', async () => {
    const info = await s.show('caps');
    assert.deepEqual(info.cost, { amount: 0.000282, currency: 'USD' });
    assert.match(await s.ok(['conv', 'show', 'caps']), /^ {2}cost: +\$0\.00028$/m);
    const status = await s.ok(['status']);
    assert.match(status, /\$0\.00028/);
  });
});
