// svc lane pick — best of N: the project checks on each key's newest done head, ranked with
// the critics' verdicts and the diff sizes, and the land command for the winner (issue #44).
import { pickLines } from '../../shared/format/pickRanking';
import { lanesPick } from '../../shared/protocol/land';
import { bool, JSON_FLAG, printJson, str, UsageError } from '../cli';
import type { CommandSpec } from '../cli';
import { withDaemon } from '../client';

const lanePick: CommandSpec = {
  path: ['lane', 'pick'],
  summary: 'best of N: run the project checks on each builder’s done head and rank them for landing',
  usage: ['--run <run> --keys <k1,k2,…> [--project <key>] [--json]'],
  flags: {
    run: { type: 'string', help: 'the run whose builders compete', value: '<run>' },
    keys: { type: 'string', help: 'the builder keys to choose among, comma-separated', value: '<k1,k2,…>' },
    project: { type: 'string', help: 'the project, when the run key is used in several', value: '<key>' },
    ...JSON_FLAG,
  },
  details:
    'Ranks by the checks (green first), then the newest critic verdict on that iteration (WOWED, IMPRESSED, PASS, NOT_YET, DEFECTS, none), then fewer defects, then the smaller diff against the base. A key with no done report is listed as not a candidate, with why. Lands nothing. Exit 0: a winner (its checks green); 1: none, or refused.',
  async run(a, io) {
    const run = str(a, 'run');
    const keys = (str(a, 'keys') ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    if (!run) throw new UsageError('--run is required');
    if (!keys.length) throw new UsageError('--keys is required: the builder keys to choose among, comma-separated');
    const result = await withDaemon(io, (c) => c.request(lanesPick, { run, keys, project: str(a, 'project') }));
    if (bool(a, 'json')) printJson(io, result);
    else io.out(pickLines(result.ranking, result.notCandidates).join('\n') + '\n');
    return result.winner ? 0 : 1;
  },
};

export const pickCommands: CommandSpec[] = [lanePick];
