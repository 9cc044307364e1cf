// The demo's "reap --park saved it:" lines, checked: the demo fails loudly when they do
// not name the saved patch and the command that restores it (an empty line once passed).
import * as fs from 'node:fs';

/**
 * The reap output's lines, refused loudly (the demo fails) unless they name the saved patch,
 * an existing file, and the command that restores it: an empty "saved it:" line once passed
 * for a working demo (CI runs the demo twice, and reads this).
 */
export function savedLines(output: string): string[] {
  const lines = output.trimEnd().split('\n');
  const patch = /^parked \d+ paths? in (\S+)$/m.exec(output)?.[1];
  const restore = /^\s*restore with: (\S.*)$/m.exec(output)?.[1];
  if (!patch || !restore || !fs.existsSync(patch))
    throw new Error(
      `reap --park printed no saved patch and restore command (${patch ? `${patch} is missing` : 'no "parked … in <patch>" line'}${restore ? '' : ', no "restore with:" line'}):\n${output || '(nothing)'}`,
    );
  return lines;
}
