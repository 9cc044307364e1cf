import * as assert from 'node:assert/strict';
import { jsonTerminalSafe, terminalSafe } from '../../shared/format/terminalText';
import { jsonText } from '../../cli/cli';

describe('terminal-safe text (shared/format/terminalText.ts)', () => {
  it('shows every control character but newline and tab as its code, C1 controls too', () => {
    assert.equal(terminalSafe('a\tb\nc'), 'a\tb\nc');
    assert.equal(terminalSafe('\x1b]0;pwned\x07'), '\\x1b]0;pwned\\x07');
    assert.equal(terminalSafe('\x1b]52;c;ZWNobyBoaQ==\x1b\\'), '\\x1b]52;c;ZWNobyBoaQ==\\x1b\\');
    assert.equal(terminalSafe('\x1b[2J\x1b[H'), '\\x1b[2J\\x1b[H');
    assert.equal(terminalSafe('x\ry\x7f\u009b31m'), 'x\\x0dy\\x7f\\x9b31m');
  });

  it('leaves printable text of every script alone', () => {
    assert.equal(terminalSafe('verdict ✓ · défauts 2 · 検査'), 'verdict ✓ · défauts 2 · 検査');
  });

  it('keeps --json output JSON: DEL and C1 controls are written as \\u00NN, the value read back unchanged', () => {
    const value = { body: 'a\u009b31m\u007f\u001b]0;x\u0007 ✓' };
    const printed = terminalSafe(jsonText(value));
    assert.equal(printed, '{\n  "body": "a\\u009b31m\\u007f\\u001b]0;x\\u0007 ✓"\n}\n');
    assert.deepEqual(JSON.parse(printed), value);
    assert.equal(jsonTerminalSafe('"plain ✓"'), '"plain ✓"');
  });
});
