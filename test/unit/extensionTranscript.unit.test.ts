import * as assert from 'node:assert/strict';
import { foldTranscript } from '../../extension/conversations/transcriptItems';
import type { TranscriptRowInfo } from '../../shared/protocol/transcript';

let seq = 0;
const row = (kind: string, payload: unknown): TranscriptRowInfo => ({ seq: ++seq, at: 1000 + seq, kind, payload });
const chunk = (text: string, kind = 'agent_message_chunk') =>
  row(kind, { sessionUpdate: kind, content: { type: 'text', text } });

describe('Conversation panel transcript (extension/conversations/transcriptItems.ts)', () => {
  beforeEach(() => (seq = 0));

  it('joins streamed chunks into one message, split by whatever comes between', () => {
    const items = foldTranscript([
      row('prompt', { text: 'do it' }),
      chunk('Hello '),
      chunk('**world**'),
      row('usage_update', {}),
      chunk('!'),
      chunk('hmm', 'agent_thought_chunk'),
      chunk('again'),
    ]);
    assert.deepEqual(items, [
      { id: 'u1', kind: 'prompt', at: 1001, text: 'do it' },
      { id: 'm2', kind: 'message', at: 1002, text: 'Hello **world**!' },
      { id: 't6', kind: 'thought', at: 1006, text: 'hmm' },
      { id: 'm7', kind: 'message', at: 1007, text: 'again' },
    ]);
  });

  it('merges a tool call with its updates: status, title, output (an update replaces the content)', () => {
    const items = foldTranscript([
      row('tool_call', {
        sessionUpdate: 'tool_call',
        toolCallId: 'run-1',
        title: 'npm test',
        kind: 'execute',
        status: 'in_progress',
      }),
      row('tool_call_update', {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'run-1',
        content: [{ type: 'content', content: { type: 'text', text: 'partial' } }],
      }),
      row('tool_call_update', {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'run-1',
        status: 'failed',
        content: [
          { type: 'content', content: { type: 'text', text: '1 failing' } },
          { type: 'diff', path: 'a.ts' },
        ],
      }),
      row('tool_call_update', { sessionUpdate: 'tool_call_update', toolCallId: 'unknown', status: 'completed' }),
    ]);
    assert.deepEqual(items, [
      {
        id: 't1',
        kind: 'tool',
        at: 1001,
        title: 'npm test',
        toolKind: 'execute',
        status: 'failed',
        output: '1 failing\n(diff of a.ts)',
        outcome: 'failed',
      },
    ]);
  });

  it('keeps the newest plan of a turn in one place, and a new turn starts a new plan', () => {
    const plan = (status: string) =>
      row('plan', { sessionUpdate: 'plan', entries: [{ content: 'step one', status, priority: 'high' }] });
    const items = foldTranscript([
      plan('pending'),
      chunk('working'),
      plan('completed'),
      row('turn_end', { stopReason: 'end_turn' }),
      plan('in_progress'),
    ]);
    assert.deepEqual(items, [
      { id: 'p1', kind: 'plan', at: 1001, entries: [{ content: 'step one', status: 'completed', priority: 'high' }] },
      { id: 'm2', kind: 'message', at: 1002, text: 'working' },
      { id: 'p5', kind: 'plan', at: 1005, entries: [{ content: 'step one', status: 'in_progress', priority: 'high' }] },
    ]);
  });

  it('shows asks with their answer or withdrawal, and lifecycle notes with errors marked', () => {
    const items = foldTranscript([
      row('permission', { id: 7, title: 'Proceed?', kind: 'permission' }),
      row('answer', { id: 7, summary: 'Allow' }),
      row('elicitation', { id: 8, title: 'Which branch?', kind: 'question' }),
      row('withdrawn', { why: 'turn cancelled' }),
      row('turn_end', { error: 'boom' }),
      row('turn_end', { stopReason: 'cancelled' }),
      row('lifecycle', { event: 'spawnError', text: 'failed to start: ENOENT' }),
      row('notice', { text: 'queued' }),
    ]);
    assert.deepEqual(items, [
      { id: 'a1', kind: 'ask', at: 1001, askKind: 'permission', title: 'Proceed?', outcome: 'answered: Allow' },
      {
        id: 'a3',
        kind: 'ask',
        at: 1003,
        askKind: 'question',
        title: 'Which branch?',
        outcome: 'withdrawn: turn cancelled',
      },
      { id: 'n5', kind: 'note', at: 1005, text: 'turn failed: boom', tone: 'error' },
      { id: 'n6', kind: 'note', at: 1006, text: 'turn ended: cancelled', tone: 'info' },
      { id: 'n7', kind: 'note', at: 1007, text: 'failed to start: ENOENT', tone: 'error' },
      { id: 'n8', kind: 'note', at: 1008, text: 'queued', tone: 'info' },
    ]);
  });

  it('gives items ids that stay the same when more rows arrive', () => {
    const first = [row('prompt', { text: 'p' }), chunk('a')];
    const more = [...first, chunk('b'), row('tool_call', { toolCallId: 'x', title: 't' })];
    assert.deepEqual(
      foldTranscript(first).map((i) => i.id),
      ['u1', 'm2'],
    );
    assert.deepEqual(
      foldTranscript(more).map((i) => i.id),
      ['u1', 'm2', 't4'],
    );
  });

  it('shows codex terminal output (from _meta deltas), a later title and the exit code of a failed call', () => {
    const items = foldTranscript([
      row('tool_call', {
        toolCallId: 'c',
        title: 'Terminal',
        kind: 'execute',
        status: 'pending',
        rawInput: {},
        content: [{ type: 'terminal', terminalId: 'c' }],
      }),
      row('tool_call_update', { toolCallId: 'c', title: '`npm test`', rawInput: { command: 'npm test' } }),
      row('tool_call_update', {
        toolCallId: 'c',
        _meta: { terminal_output_delta: { data: '1 passing\n', terminal_id: 'c' } },
      }),
      row('tool_call_update', {
        toolCallId: 'c',
        _meta: { terminal_output_delta: { data: '1 failing\n', terminal_id: 'c' } },
      }),
      row('tool_call_update', {
        toolCallId: 'c',
        status: 'failed',
        rawOutput: { exit_code: 1 },
        _meta: { terminal_exit: { exit_code: 1, signal: null, terminal_id: 'c' } },
      }),
    ]);
    assert.deepEqual(items, [
      {
        id: 't1',
        kind: 'tool',
        at: 1001,
        title: 'npm test',
        toolKind: 'execute',
        status: 'failed',
        output: '1 passing\n1 failing\n',
        outcome: 'exit 1',
      },
    ]);
  });

  it('starts a new message item when the message id changes', () => {
    const msg = (text: string, messageId: string) =>
      row('agent_message_chunk', { content: { type: 'text', text }, messageId });
    assert.deepEqual(
      foldTranscript([msg('one', 'a'), msg(' more', 'a'), msg('two', 'b')]).map((i) =>
        i.kind === 'message' ? i.text : i.kind,
      ),
      ['one more', 'two'],
    );
  });
});
