import * as assert from 'node:assert/strict';
import { lastLines, renderTranscript } from '../../server/conversations/transcriptText';
import type { TranscriptRow } from '../../server/conversations/transcriptStore';

let seq = 0;
const row = (kind: string, payload: unknown): TranscriptRow => ({ seq: ++seq, at: 0, kind, payload });
const chunk = (text: string) => row('agent_message_chunk', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

describe('transcript as terminal text', () => {
  const rows = [
    row('lifecycle', { event: 'started', text: 'script agent started' }),
    row('prompt', { text: 'line one\nline two' }),
    chunk('Hel'),
    chunk('lo'),
    row('agent_thought_chunk', { content: { type: 'text', text: 'secret thinking' } }),
    row('tool_call', { toolCallId: 't1', title: 'npm test', status: 'in_progress' }),
    row('tool_call_update', { toolCallId: 't1', status: 'failed', content: [{ type: 'content', content: { type: 'text', text: '1 failing\n' } }] }),
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
        '(failed: t1)',
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
});
