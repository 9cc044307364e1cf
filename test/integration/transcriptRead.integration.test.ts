// transcript/read: the stored rows the Conversation panel folds (messages, tool calls with
// their output), newest-first windows and incremental reads after a seq.
import * as assert from 'node:assert/strict';
import { foldTranscript } from '../../extension/conversations/transcriptItems';
import { transcriptRead } from '../../shared/protocol/transcript';
import type { TranscriptRowInfo } from '../../shared/protocol/transcript';
import { convScratch, rpc, script } from './convSupport';
import type { ConvScratch } from './convSupport';

type Read = { conv: number; rows: TranscriptRowInfo[]; lastSeq: number; truncated: boolean };

describe('transcript/read', function () {
  this.timeout(60_000);
  let s: ConvScratch;
  const read = async (params: Record<string, unknown>): Promise<Read> => {
    const c = await rpc(s);
    try {
      return await c.sendRequest<Read>(transcriptRead.method, params);
    } finally {
      c.end();
    }
  };

  before(async () => {
    s = await convScratch('transcript-read');
  });
  after(async () => s?.dispose());

  it('returns the rows in order; the panel folds them into a message and a tool call with its output', async () => {
    const id = await s.start(script('- say: hello **there**', "- run: printf 'out\\n'"), ['--title', 'reader']);
    await s.waitActivity(id, 'idle');
    const r = await read({ conv: 'reader' });
    assert.equal(r.conv, id);
    assert.equal(r.truncated, false);
    assert.deepEqual(
      r.rows.map((x) => x.seq),
      Array.from({ length: r.rows.length }, (_, i) => i + 1),
    );
    assert.equal(r.lastSeq, r.rows.length);
    const shown = r.rows
      .map((x) => x.kind)
      .filter(
        (k) =>
          !['usage_update', 'available_commands_update', 'config_option_update', 'current_mode_update'].includes(k),
      );
    assert.deepEqual(shown, [
      'lifecycle',
      'lifecycle',
      'prompt',
      'agent_message_chunk',
      'tool_call',
      'tool_call_update',
      'turn_end',
    ]);
    const items = foldTranscript(r.rows).filter((i) => i.kind !== 'note');
    assert.deepEqual(
      items.map((i) =>
        i.kind === 'tool' ? [i.kind, i.title, i.status, i.output] : [i.kind, 'text' in i ? i.text : ''],
      ),
      [
        ['prompt', script('- say: hello **there**', "- run: printf 'out\\n'")],
        ['message', 'hello **there**\n'],
        ['tool', "printf 'out\\n'", 'completed', 'out\n'],
      ],
    );
  });

  it('gives the newest rows for a limit, and the rows after a seq (a tell) with truncated when more follow', async () => {
    const all = await read({ conv: 'reader' });
    const tail = await read({ conv: 'reader', limit: 2 });
    assert.deepEqual(tail.rows, all.rows.slice(-2));
    assert.equal(tail.truncated, true);
    assert.equal(tail.lastSeq, all.lastSeq);

    await s.ok(['tell', 'reader', 'one more']);
    await s.waitActivity('reader', 'idle');
    const after = await read({ conv: 'reader', afterSeq: all.lastSeq });
    assert.equal(after.truncated, false);
    assert.equal(after.rows[0].seq, all.lastSeq + 1);
    assert.deepEqual(after.rows[0].payload, { text: 'one more' });
    assert.equal(after.rows[0].kind, 'prompt');
    const one = await read({ conv: 'reader', afterSeq: all.lastSeq, limit: 1 });
    assert.deepEqual([one.rows.length, one.truncated], [1, true]);
    const none = await read({ conv: 'reader', afterSeq: after.lastSeq });
    assert.deepEqual([none.rows, none.truncated, none.lastSeq], [[], false, after.lastSeq]);
  });

  it('carries a plan from the script harness to the panel and the log; a newer plan replaces it', async () => {
    const id = await s.start(
      script(
        '- plan: [read the brief, write code]',
        '- plan: [{content: read the brief, status: completed}, {content: write code, status: in_progress}]',
      ),
      ['--title', 'planner'],
    );
    await s.waitActivity(id, 'idle');
    const r = await read({ conv: 'planner' });
    const plans = foldTranscript(r.rows).filter((i) => i.kind === 'plan');
    assert.equal(plans.length, 1, 'a turn shows its newest plan');
    assert.deepEqual(
      (plans[0] as { entries: unknown[] }).entries.map((e) => JSON.stringify(e)),
      [
        JSON.stringify({ content: 'read the brief', status: 'completed', priority: 'medium' }),
        JSON.stringify({ content: 'write code', status: 'in_progress', priority: 'medium' }),
      ],
    );
    const log = await s.ok(['conv', 'log', 'planner']);
    assert.match(log, /plan:\n {2}\[completed\] read the brief\n {2}\[in_progress\] write code/);
  });

  it('refuses an unknown conversation with the usual message', async () => {
    const c = await rpc(s);
    try {
      await assert.rejects(
        c.sendRequest(transcriptRead.method, { conv: 'nobody' }),
        (e: Error & { data?: { reason?: string } }) => {
          assert.equal(e.message, "no conversation 'nobody' (give #id, id, name or conv-<name>; see svc conv list)");
          assert.equal(e.data?.reason, 'unknownConversation');
          return true;
        },
      );
    } finally {
      c.end();
    }
  });
});
