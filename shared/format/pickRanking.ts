// Best of N, the ranking alone (docs/cli.md, `svc lane pick`): candidates whose project checks
// are green first, then by their newest critic verdict (WOWED > IMPRESSED > PASS > NOT_YET >
// DEFECTS > none), then fewer defects, then the smaller diff; the key breaks a tie, so the same
// candidates always rank the same. Pure, and in shared/ because the daemon ranks
// (server/land/pick.ts gathers the facts and runs the checks) and the shim prints the lines.
import type { VERDICTS } from '../keys';

export type Verdict = (typeof VERDICTS)[number];

/** The verdicts best first; a candidate no critic judged ranks after all of them. */
export const VERDICT_ORDER: readonly Verdict[] = ['WOWED', 'IMPRESSED', 'PASS', 'NOT_YET', 'DEFECTS'];

export interface PickCandidate {
  key: string;
  /** The builder lane whose newest done head this is: the lane `svc lane land` takes. */
  lane: string;
  head: string;
  /** green: every check passed; red: the checks that failed, by name. */
  checks: { green: true } | { green: false; failed: string[] };
  verdict: Verdict | null;
  defects: number;
  /** Lines added and removed against the base. */
  diffLines: number;
  /** Where the output of each failed check is kept (the printed ranking names the file). */
  failedOutput?: { name: string; outputPath: string }[];
}

/** A key whose builder has no done head to rank: listed with why, never dropped. */
export interface NotCandidate {
  key: string;
  /** The key's newest builder lane; null when the run has no builder of that key. */
  lane: string | null;
  reason: string;
}

export interface RankedCandidate extends PickCandidate {
  rank: number;
  /** Why it stands where it does, in the order the ranking reads the facts. */
  reasons: string[];
}

const verdictIndex = (v: Verdict | null) => (v === null ? VERDICT_ORDER.length : VERDICT_ORDER.indexOf(v));

/** Negative when `a` ranks before `b`. */
export function compareCandidates(a: PickCandidate, b: PickCandidate): number {
  return (
    Number(!a.checks.green) - Number(!b.checks.green) ||
    verdictIndex(a.verdict) - verdictIndex(b.verdict) ||
    a.defects - b.defects ||
    a.diffLines - b.diffLines ||
    (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
  );
}

export function reasonsOf(c: PickCandidate): string[] {
  const checks = c.checks.green ? 'checks green' : `checks red (${c.checks.failed.join(', ')})`;
  const verdict =
    c.verdict === null
      ? 'no critic verdict'
      : `critic ${c.verdict}${c.defects > 0 ? ` (${c.defects} defect${c.defects === 1 ? '' : 's'})` : ''}`;
  return [checks, verdict, `diff ${c.diffLines} line${c.diffLines === 1 ? '' : 's'}`];
}

/** Best first; whatever else a candidate carries comes along. */
export function rankCandidates<C extends PickCandidate>(candidates: readonly C[]): (C & RankedCandidate)[] {
  return [...candidates].sort(compareCandidates).map((c, i) => ({ ...c, rank: i + 1, reasons: reasonsOf(c) }));
}

/** The winner: the first of the ranking when its checks are green; none otherwise. */
export const winnerOf = (ranked: readonly RankedCandidate[]): RankedCandidate | undefined =>
  ranked[0]?.checks.green ? ranked[0] : undefined;

/**
 * The ranking as `svc lane pick` prints it (each failed check's output file under its
 * candidate), the keys that are not candidates and why, then the command that lands the
 * winner (none when no candidate is green).
 */
export function pickLines(ranked: readonly RankedCandidate[], notCandidates: readonly NotCandidate[] = []): string[] {
  const lines = ranked.flatMap((c) => [
    `${c.rank}. ${c.key} (${c.lane} at ${c.head.slice(0, 12)}): ${c.reasons.join(', ')}`,
    ...(c.failedOutput ?? []).map((f) => `   ${f.name}'s output: cat ${f.outputPath}`),
  ]);
  const others = notCandidates.map((n) => `not a candidate: ${n.key}${n.lane ? ` (${n.lane})` : ''}: ${n.reason}`);
  const winner = ranked[0];
  if (!winner) return [...others, 'no candidate: none of the keys has a done report'];
  if (!winner.checks.green) return [...lines, ...others, 'no candidate passes the checks: nothing to land'];
  return [...lines, ...others, `land the winner with: svc lane land ${winner.lane}`];
}
