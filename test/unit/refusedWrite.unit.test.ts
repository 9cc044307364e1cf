// A write the sandbox refused ("Read-only file system") is found in a tool call's output,
// wherever the harness puts it, and told in words (server/sandbox/refusedWrite.ts).
import * as assert from 'node:assert/strict';
import { WRITABLE_PLACES, refusedWriteLine, refusedWriteNotice } from '../../server/sandbox/refusedWrite';

const LINE = "touch: cannot touch '/home/u/proj/x': Read-only file system";

describe('a write the sandbox refused, in words', () => {
  it('finds the refused write in content, raw output or streamed terminal output', () => {
    const content = { type: 'content', content: { type: 'text', text: `ok\n${LINE}\n` } };
    for (const update of [
      { sessionUpdate: 'tool_call_update', toolCallId: 'a', content: [content] },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'a',
        rawOutput: { formatted_output: `${LINE}\n`, exit_code: 1 },
      },
      { sessionUpdate: 'tool_call_update', toolCallId: 'a', _meta: { terminal_output_delta: { data: LINE } } },
    ])
      assert.equal(refusedWriteLine(update), LINE);
    assert.equal(
      refusedWriteLine({
        sessionUpdate: 'tool_call_update',
        rawOutput: { error: "EROFS: read-only file system, open '/home/u/.gitconfig'" },
      }),
      "EROFS: read-only file system, open '/home/u/.gitconfig'",
    );
    assert.equal(refusedWriteLine({ sessionUpdate: 'tool_call_update', content: [{ text: 'all fine' }] }), undefined);
    assert.equal(refusedWriteLine({ sessionUpdate: 'agent_message_chunk', content: { text: LINE } }), undefined);
  });

  it('says the sandbox refused it and where a lane may write', () => {
    assert.equal(
      refusedWriteNotice(LINE),
      `the sandbox refused a write (${LINE}): a workspace lane may write only ${WRITABLE_PLACES}; anything else is read-only inside it (a lane started with --sandbox off is not confined)`,
    );
  });
});
