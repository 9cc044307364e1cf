// The builders a critic (or a verifier) may judge, as the key step offers them.
import type { LaneRecord } from '../../../shared/protocol/lanes';
import type { PickItem } from './flowTypes';

export interface JudgeChoice extends PickItem {
  key: string;
  iteration: number;
  /** The head of the newest done report: the commit judged without --at. */
  reported?: string;
  /** The builder's current head, offered when it has not reported. */
  head?: string;
}

/** The builders of a run a critic may judge: one per key, its newest iteration, reported ones first. */
export function judgeChoices(lanes: readonly LaneRecord[]): JudgeChoice[] {
  const newest = new Map<string, LaneRecord[]>();
  for (const l of lanes) {
    if (l.role !== 'builder') continue;
    const top = newest.get(l.key)?.[0];
    if (!top || l.iteration > top.iteration) newest.set(l.key, [l]);
    else if (l.iteration === top.iteration) newest.get(l.key)!.push(l);
  }
  const out: JudgeChoice[] = [];
  for (const [key, same] of newest) {
    const iteration = same[0].iteration;
    const done = same
      .map((l) => l.report)
      .filter((r) => r?.status === 'done' && r.headSha)
      .sort((a, b) => b!.at - a!.at)[0];
    const head = same.map((l) => l.git?.headSha).find((h) => h);
    out.push(
      done
        ? {
            label: key,
            description: `builder ${key} i${iteration} reported done at ${done.headSha!.slice(0, 7)}`,
            key,
            iteration,
            reported: done.headSha!,
          }
        : {
            label: key,
            description: `builder ${key} i${iteration} has not reported: judge it at a commit you name`,
            key,
            iteration,
            ...(head ? { head } : {}),
          },
    );
  }
  return out.sort((a, b) => Number(!!b.reported) - Number(!!a.reported) || a.key.localeCompare(b.key));
}
