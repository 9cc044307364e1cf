// svc lane land — queue a builder's frozen done head onto its project's base (issue #44).
import { lanesLand } from '../../shared/protocol/land';
import type { Landing } from '../../shared/protocol/land';
import { bool, JSON_FLAG, printJson } from '../cli';
import type { CommandSpec } from '../cli';
import { withDaemon } from '../client';

const short = (sha: string | null) => (sha ?? '').slice(0, 7);

/** One line for a landing as the shim prints it after `svc lane land`. */
export function landingLine(l: Landing): string {
  const checks = l.checks.length
    ? `checks ${l.checks.map((c) => `${c.name} ${(c.durationMs / 1000).toFixed(1)}s`).join(', ')}`
    : 'no checks configured';
  if (l.state === 'landed')
    return `Landed ${l.lane} on ${l.base}: ${short(l.baseSha)}..${short(l.landedSha)} (${l.method}; ${checks})`;
  const where = l.position === 0 ? 'next in line' : `position ${l.position} in the queue`;
  return `Landing #${l.id} of ${l.lane} queued on ${l.project}/${l.base}, ${where}; svc lane runs shows the queue`;
}

const laneLand: CommandSpec = {
  path: ['lane', 'land'],
  summary: 'land a builder’s newest done head on its base, tested with the project checks in a queue',
  usage: ['<lane> [--wait] [--json]'],
  flags: {
    wait: { type: 'boolean', help: 'wait for its turn in the queue and the result' },
    ...JSON_FLAG,
  },
  positionals: [{ name: 'lane', required: true }],
  details:
    'Combines the head with the base (gauntlet.land.method: merge, rebase or squash), runs gauntlet.checks on the result in a fresh worktree, and only on green moves the base by a fast-forward push (on GitHub: merges the builder’s PR, opened when there is none, once GitHub says it is ready). Exit 0: landed (or queued, without --wait); 1: refused, with the base unchanged.',
  async run(a, io) {
    const { landing } = await withDaemon(io, (c) =>
      c.request(lanesLand, { lane: a.positionals[0], wait: bool(a, 'wait') }),
    );
    if (bool(a, 'json')) printJson(io, landing);
    else io.out(landingLine(landing) + '\n');
    return 0;
  },
};

export const landCommands: CommandSpec[] = [laneLand];
