// The demo fails loudly when its "reap --park saved it:" lines would not say what was
// saved: an empty line (the reap output read before it was written) once passed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { savedLines } from '../../scripts/demo/savedLines';
import { makeScratch } from '../helpers/scratch';

describe('the demo checks what reap --park saved', () => {
  const s = makeScratch('demo-saved');
  after(() => s.dispose());
  const patch = path.join(s.home, 'parked-20261126T133138Z.patch');
  fs.writeFileSync(patch, 'diff\n');
  const output = [
    'reaped conv 3 (demo-docs-builder-i1)',
    `parked 1 path in ${patch}`,
    `  restore with: git -C /x worktree add /y demo/docs && git -C /y apply --index -p2 ${patch}`,
    'kept conv 3 in the Command Deck (--keep)',
    '',
  ].join('\n');

  it('passes the lines through when they name an existing patch and the restore command', () => {
    assert.deepEqual(savedLines(output), output.trimEnd().split('\n'));
  });

  it('refuses empty output, a missing patch file, and a missing restore command', () => {
    assert.throws(() => savedLines(''), /no "parked … in <patch>" line, no "restore with:" line\):\n\(nothing\)$/);
    assert.throws(() => savedLines(output.replace(patch, `${patch}.gone`)), /\.gone is missing/);
    assert.throws(() => savedLines(output.replace(/restore with: .*\n/, '\n')), /no "restore with:" line/);
  });
});
