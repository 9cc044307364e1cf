// The command reference (docs/cli.md) is `svc --help`, row for row: every command of the
// shim's table is listed with its exact summary, and the reference lists nothing else.
// Cells may be padded: Prettier aligns the table's columns.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMMANDS } from '../../cli/registry';

const REFERENCE = fs.readFileSync(path.join(__dirname, '..', '..', 'docs', 'cli.md'), 'utf8');

describe('the command reference, docs/cli.md', () => {
  const rows = [...REFERENCE.matchAll(/^\| `svc ([^`]+)` *\| (.+?) *\|$/gm)].map((m) => ({
    path: m[1],
    summary: m[2],
  }));

  it('lists every command with the summary `svc --help` prints', () => {
    for (const c of COMMANDS) {
      const row = rows.find((r) => r.path === c.path.join(' '));
      assert.ok(row, `docs/cli.md lacks svc ${c.path.join(' ')}`);
      assert.equal(row.summary, c.summary, `summary of svc ${c.path.join(' ')}`);
    }
  });

  it('lists no command the shim does not have', () => {
    for (const r of rows)
      assert.ok(
        COMMANDS.some((c) => c.path.join(' ') === r.path),
        `docs/cli.md names svc ${r.path}, which does not exist`,
      );
  });

  it('gives each command --help with usage and every flag', () => {
    for (const c of COMMANDS) {
      assert.ok(c.usage.length > 0, `svc ${c.path.join(' ')} has a usage line`);
      for (const [name, f] of Object.entries(c.flags))
        assert.ok(f.help.trim().length > 0, `svc ${c.path.join(' ')} --${name} has help`);
    }
  });
});
