// svc run export — a gauntlet run's record: one self-contained HTML page (or its facts as
// JSON) written to a file in the current folder, or to --out (`-`: standard output).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runsExport } from '../../shared/protocol/runRecord';
import { bool, JSON_FLAG, jsonText, str, UsageError } from '../cli';
import type { CommandSpec } from '../cli';
import { withDaemon } from '../client';

const runExport: CommandSpec = {
  path: ['run', 'export'],
  summary: 'write a gauntlet run’s record: one self-contained HTML page (tree, chains, reports, diffs, timeline, cost)',
  usage: ['<run> [--project <key>] [--out <file>] [--json]'],
  flags: {
    project: { type: 'string', help: 'the run’s project, when runs of several projects share the key', value: '<key>' },
    out: {
      type: 'string',
      help: 'the file to write (default: svc-run-<project>-<run>.html, or .json, in the current folder; - for standard output)',
      value: '<file>',
    },
    ...JSON_FLAG,
  },
  positionals: [{ name: 'run', required: true }],
  details:
    'The page loads nothing from elsewhere and runs no script: it opens from a file, a PR attachment or an e-mail. Paths under your home show as ~; no tokens, credentials or environment.',
  async run(a, io) {
    const asJson = bool(a, 'json');
    const r = await withDaemon(io, (c) =>
      c.request(runsExport, { run: a.positionals[0], project: str(a, 'project'), format: asJson ? 'json' : 'html' }),
    );
    const text = asJson ? jsonText(r.record) : r.html!;
    const out = str(a, 'out') ?? `svc-run-${r.record.project}-${r.record.run}.${asJson ? 'json' : 'html'}`;
    if (out === '-') {
      io.out(text);
      return 0;
    }
    const file = path.resolve(io.cwd, out);
    try {
      // A run record holds the agents' reports and diffs: the user shares it, svc does not.
      fs.writeFileSync(file, text, { mode: 0o600 });
    } catch (e) {
      throw new UsageError(`cannot write ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    io.out(
      `Run record of ${r.record.project}/${r.record.run} written to ${file} (${Math.ceil(Buffer.byteLength(text) / 1024)} KB)\n`,
    );
    return 0;
  },
};

export const runCommands: CommandSpec[] = [runExport];
