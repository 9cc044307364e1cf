// No drift: every `svc …` command the svc-gauntlet-loop skill teaches must exist in the
// shim's real command table and parse with its real argument parser.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseArgs } from '../../cli/cli';
import { findCommand } from '../../cli/main';

const SKILL = path.join(__dirname, '..', '..', 'shared', 'skills', 'svc-gauntlet-loop', 'SKILL.md');

/** Command lines in fenced blocks and in inline code that start with `svc `. */
export function svcCommandLines(markdown: string): string[] {
  const lines: string[] = [];
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence && /^\s*svc\s/.test(line)) lines.push(line.trim());
    if (!inFence) for (const m of line.matchAll(/`(svc [^`]+)`/g)) lines.push(m[1]);
  }
  return lines;
}

/** Splits like a shell for the simple quoting the skill uses. */
function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

describe('svc-gauntlet-loop skill', () => {
  const text = fs.readFileSync(SKILL, 'utf8');

  it('has Agent Skills front matter with name and description', () => {
    const m = /^---\nname: (.+)\ndescription: (.+)\n---\n/.exec(text);
    assert.ok(m, 'front matter');
    assert.equal(m[1], 'svc-gauntlet-loop');
    assert.ok(m[2].length > 50 && m[2].length <= 500, 'a description a harness will show (≤ 500 characters)');
  });

  it('teaches only commands and flags the shim really parses', () => {
    const lines = svcCommandLines(text).filter((l) => !l.startsWith('svc <command>'));
    assert.ok(lines.length >= 20, `found ${lines.length} command lines`);
    for (const line of lines) {
      const argv = words(line.replace(/<[^>]+>/g, 'x')).slice(1);
      const { spec, rest } = findCommand(argv);
      assert.ok(spec, `no such command: ${line}`);
      // A bare mention (`svc lane reap` in a sentence) names the command; with arguments it must parse.
      if (rest.length > 0) assert.doesNotThrow(() => parseArgs(spec, rest), `does not parse: ${line}`);
    }
  });

  it('covers every lane verb of the loop', () => {
    const verbs = new Set(svcCommandLines(text).map((l) => words(l).slice(0, 3).join(' ')));
    for (const v of [
      'svc lane start',
      'svc lane wait',
      'svc lane report',
      'svc lane reap',
      'svc lane list',
      'svc lane show',
    ])
      assert.ok(verbs.has(v), v);
  });
});
