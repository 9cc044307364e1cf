// A hostile lane's text never drives the person's terminal: a report body holding escape
// sequences (window title, clipboard write, screen clear) reaches `svc lane wait` and
// `svc lane show` with each control character shown as its code (shared/format/terminalText.ts).
import * as assert from 'node:assert/strict';
import { laneWorld, ok, startLane } from '../helpers/lanes';
import type { LaneWorld } from '../helpers/lanes';
import { makeScratch } from '../helpers/scratch';
import type { Scratch } from '../helpers/scratch';
import { writeBrief } from '../helpers/scriptBrief';

describe('terminal: agent text is made safe wherever the CLI prints it', function () {
  this.timeout(180_000);
  let s: Scratch;
  let w: LaneWorld;

  before(async () => {
    s = makeScratch('terminal-escapes');
    w = await laneWorld(s);
  });
  after(async () => s.dispose());

  it('lane wait prints a report body with its escape sequences shown, not obeyed', async () => {
    await startLane(w, {
      run: 'esc',
      key: 'k',
      role: 'builder',
      model: 'm',
      brief: writeBrief(w.briefs, 'esc.md', [
        {
          run: "printf 'BLOCKED: \\033]0;owned\\007\\033]52;c;aGk=\\007\\033[2J ruling?\\n' | svc lane report --stdin --status blocked",
        },
      ]),
    });
    const r = await s.svc(['lane', 'wait', 'esc-k-builder-i1', '--timeout', '60']);
    assert.equal(r.code, 4, r.stderr);
    assert.equal(r.stdout, 'BLOCKED: \\x1b]0;owned\\x07\\x1b]52;c;aGk=\\x07\\x1b[2J ruling?\n');
    assert.ok(!(r.stdout + r.stderr).includes('\x1b'), 'no ESC reaches the terminal');
    const json = await ok(s.svc(['lane', 'list', '--run', 'esc', '--json']));
    // JSON escapes control characters itself: the record keeps the body as the agent wrote it.
    assert.ok(!json.stdout.includes('\x1b'), 'JSON carries no raw ESC');
  });
});
