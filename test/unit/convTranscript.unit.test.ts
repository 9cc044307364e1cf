import * as assert from 'node:assert/strict';
import { continuedToolCalls, lastLines, renderTranscript } from '../../server/conversations/transcriptText';
import type { TranscriptRow } from '../../server/conversations/transcriptStore';

let seq = 0;
const row = (kind: string, payload: unknown): TranscriptRow => ({ seq: ++seq, at: 0, kind, payload });
const chunk = (text: string) =>
  row('agent_message_chunk', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

describe('transcript as terminal text', () => {
  const rows = [
    row('lifecycle', { event: 'started', text: 'script agent started' }),
    row('prompt', { text: 'line one\nline two' }),
    chunk('Hel'),
    chunk('lo'),
    row('agent_thought_chunk', { content: { type: 'text', text: 'secret thinking' } }),
    row('tool_call', { toolCallId: 't1', title: 'npm test', status: 'in_progress' }),
    row('tool_call_update', {
      toolCallId: 't1',
      status: 'failed',
      content: [{ type: 'content', content: { type: 'text', text: '1 failing\n' } }],
    }),
    row('permission', { title: 'Push?' }),
    row('answer', { summary: 'Allow (allow)' }),
    row('turn_end', { stopReason: 'cancelled' }),
  ];

  it('renders prompts, streamed chunks, tool output, asks and turn ends; leaves thoughts out', () => {
    assert.equal(
      renderTranscript(rows).text,
      [
        '[svc] script agent started',
        '> line one',
        '> line two',
        'Hello',
        '$ npm test',
        '1 failing',
        '(failed: npm test)',
        '? Push?',
        '→ Allow (allow)',
        '[turn ended: cancelled]',
        '',
      ].join('\n'),
    );
  });

  it('lastLines keeps the newest n lines', () => {
    assert.deepEqual(lastLines(rows, 2), ['→ Allow (allow)', '[turn ended: cancelled]']);
    assert.deepEqual(lastLines([], 5), []);
  });

  it('continues an open line across calls (log --follow)', () => {
    const a = renderTranscript([chunk('par')]);
    assert.deepEqual(a, { text: 'par', open: true });
    assert.equal(renderTranscript([chunk('tial\n')], a.open).text, 'tial\n');
    assert.equal(renderTranscript([row('prompt', { text: 'next' })], true).text, '\n> next\n');
  });

  // What codex-acp 2.6 sends for a command (its own tests' terminal-full-flow), and Claude's late title.
  const codexCall = (id: string, command: string, deltas: string[], exit: number) => [
    row('tool_call', {
      toolCallId: id,
      title: command,
      kind: 'execute',
      status: 'in_progress',
      rawInput: { command, cwd: '/w' },
      content: [{ type: 'terminal', terminalId: id }],
      _meta: { terminal_info: { terminal_id: id, cwd: '/w' } },
    }),
    ...deltas.map((data) =>
      row('tool_call_update', { toolCallId: id, _meta: { terminal_output_delta: { data, terminal_id: id } } }),
    ),
    row('tool_call_update', {
      toolCallId: id,
      status: exit === 0 ? 'completed' : 'failed',
      rawOutput: { formatted_output: deltas.join(''), exit_code: exit },
      _meta: { terminal_exit: { exit_code: exit, signal: null, terminal_id: id } },
    }),
  ];

  it('prints codex terminal output from its _meta deltas, and a failed call by its command and exit code', () => {
    assert.equal(
      renderTranscript([
        ...codexCall('c1', 'echo hello', ['hel', 'lo\n', 'world\n'], 0),
        ...codexCall('c2', 'false', [], 1),
      ]).text,
      '$ echo hello\nhello\nworld\n$ false\n(failed: false, exit 1)\n',
    );
  });

  it('takes `terminal_output` chunks too (clients that declare the Zed key)', () => {
    const rows = [
      row('tool_call', { toolCallId: 'z', title: 'ls', rawInput: { command: 'ls' } }),
      row('tool_call_update', { toolCallId: 'z', _meta: { terminal_output: { data: 'a.txt\n', terminal_id: 'z' } } }),
    ];
    assert.equal(renderTranscript(rows).text, '$ ls\na.txt\n');
  });

  it('names a call by the command of a later update, not its first title', () => {
    const rows = [
      row('tool_call', { toolCallId: 'b1', title: 'Terminal', kind: 'execute', status: 'pending', rawInput: {} }),
      row('tool_call_update', {
        toolCallId: 'b1',
        title: '`git status --short`',
        status: 'in_progress',
        rawInput: { command: 'git status --short', description: 'status' },
      }),
      row('tool_call_update', {
        toolCallId: 'b1',
        status: 'failed',
        content: [{ type: 'content', content: { type: 'text', text: 'fatal: not a git repository' } }],
      }),
    ];
    assert.equal(
      renderTranscript(rows).text,
      '$ git status --short\nfatal: not a git repository\n(failed: git status --short)\n',
    );
  });

  it('a follow render continues a call started earlier: a new name is printed once, output appends', () => {
    const all = [
      row('tool_call', { toolCallId: 'f1', title: 'Terminal', rawInput: {} }),
      row('tool_call_update', { toolCallId: 'f1', title: '`make`', rawInput: { command: 'make' } }),
      row('tool_call_update', {
        toolCallId: 'f1',
        _meta: { terminal_output_delta: { data: 'built\n', terminal_id: 'f1' } },
      }),
      row('tool_call_update', {
        toolCallId: 'f1',
        status: 'completed',
        _meta: { terminal_exit: { exit_code: 0, terminal_id: 'f1' } },
      }),
    ];
    assert.equal(renderTranscript(all.slice(0, 1)).text, '$ Terminal\n');
    const later = all.slice(1);
    assert.deepEqual(continuedToolCalls(later), ['f1']);
    assert.equal(renderTranscript(later, false, all.slice(0, 1)).text, '$ make\nbuilt\n');
  });

  it('puts consecutive agent messages on lines of their own', () => {
    const msg = (text: string, messageId?: string) =>
      row('agent_message_chunk', { content: { type: 'text', text }, ...(messageId ? { messageId } : {}) });
    const rows = [
      msg('Let me look.', 'a'),
      msg(' Done', 'b'),
      msg('.', 'b'),
      row('agent_thought_chunk', { content: { type: 'text', text: 'hm' } }),
      msg('After thinking.'),
      row('usage_update', { used: 1 }),
      msg(' Same message.'),
    ];
    assert.equal(renderTranscript(rows).text, 'Let me look.\n Done.\nAfter thinking. Same message.');
  });

  it('a tail that begins inside a call still shows its output (without a header it cannot know)', () => {
    const rows = [
      row('tool_call_update', {
        toolCallId: 'old',
        _meta: { terminal_output_delta: { data: 'late line\n', terminal_id: 'old' } },
      }),
      row('tool_call_update', {
        toolCallId: 'old2',
        status: 'failed',
        rawInput: { command: 'make' },
        content: [{ type: 'content', content: { type: 'text', text: 'boom' } }],
      }),
    ];
    assert.equal(renderTranscript(rows).text, 'late line\nboom\n(failed: make)\n');
  });

  it('names a codex call by its title, not the shell wrapper of its rawInput; a command sent only later names a call', () => {
    const rows = [
      row('tool_call', {
        toolCallId: 'x',
        title: 'ls -a',
        rawInput: { command: "/bin/bash -lc 'ls -a'", cwd: '/w' },
        content: [{ type: 'terminal', terminalId: 'x' }],
      }),
      row('tool_call', { toolCallId: 'y', title: 'Bash', rawInput: {} }),
      row('tool_call_update', { toolCallId: 'y', rawInput: { command: 'npm ci' } }),
    ];
    assert.equal(renderTranscript(rows).text, '$ ls -a\n$ npm ci\n');
  });
});
