// `svc lane show`: the builder-to-critic chain of one run and key, then one line per lane.
// Chain form (spec): `i1 built → critic c1: NOT_YET (2 defects) → i2 built → critic c2: PASS`.
import { defectCount } from '../../shared/format/defects';
import type { LaneRecord, ParkedPatch } from '../../shared/protocol/lanes';

function judgeStep(j: LaneRecord): string {
  const letter = j.role === 'critic' ? 'c' : 'v';
  const head = `${j.role} ${letter}${j.iteration}`;
  if (!j.verdict) return `${head}: ${j.activity}`;
  const n = j.verdict.defects;
  return `${head}: ${j.verdict.verdict}${n > 0 ? ` (${defectCount(n)})` : ''}`;
}

function builderStep(iteration: number, lanes: LaneRecord[]): string {
  const reports = lanes
    .map((l) => l.report)
    .filter((r) => r !== null)
    .sort((a, b) => a.at - b.at);
  if (reports.some((r) => r.status === 'done')) return `i${iteration} built`;
  const newest = reports[reports.length - 1];
  if (newest) return `i${iteration} ${newest.status}`;
  return `i${iteration} ${lanes[lanes.length - 1].activity}`;
}

/** `lanes`: every lane of one run and key, in launch order. */
export function chainLine(lanes: LaneRecord[]): string {
  const builders = lanes.filter((l) => l.role === 'builder');
  const judges = lanes.filter((l) => (l.role === 'critic' || l.role === 'verifier') && l.judged);
  const iterations = [...new Set(builders.map((b) => b.iteration))].sort((a, b) => a - b);
  const steps: string[] = [];
  for (const i of iterations) {
    steps.push(
      builderStep(
        i,
        builders.filter((b) => b.iteration === i),
      ),
    );
    // One step per judge iteration: a --reuse respawn shares its iteration and its one verdict.
    const ofBuilder = judges.filter((x) => x.judged!.iteration === i);
    const groups = new Map<string, LaneRecord[]>();
    for (const j of ofBuilder)
      groups.set(`${j.role} ${j.iteration}`, [...(groups.get(`${j.role} ${j.iteration}`) ?? []), j]);
    for (const group of groups.values()) steps.push(judgeStep(group.find((g) => g.verdict) ?? group[group.length - 1]));
  }
  const others = lanes.filter(
    (l) => l.role !== 'builder' && !((l.role === 'critic' || l.role === 'verifier') && l.judged),
  );
  for (const o of others) steps.push(`${o.role} i${o.iteration}: ${o.verdict ? o.verdict.verdict : o.activity}`);
  return steps.join(' → ');
}

/** What a lane's sandbox lets its agent do, in a few words. */
export function sandboxText(mode: LaneRecord['sandbox']): string {
  return mode === 'workspace'
    ? 'sandbox workspace: writes only its own worktree'
    : 'sandbox off: unconfined, runs as you';
}

/** `#<id> <role> i<n> <activity> <verdict> <verdict file>`, what svc does while its host's connection is down, its spend against a cap, its sandbox, a builder's base commit and its parked patches. */
export function laneLines(l: LaneRecord): string[] {
  const own = l.role === 'critic' || l.role === 'verifier' ? l.verdict : null;
  const line = `#${l.id} ${l.role} i${l.iteration} ${l.activity} ${own?.verdict ?? '-'} ${own?.verdictFile ?? '-'}`;
  const lines = l.hostLost ? [line, `    ${l.hostLost.text}`] : [line];
  if (l.budget.state !== 'none')
    lines.push(l.budget.state === 'not-enforceable' ? `    ${l.budget.text}` : `    budget: ${l.budget.text}`);
  lines.push(`    ${sandboxText(l.sandbox)}`);
  // A builder's commits are its branch since this commit (what Compare with Base shows).
  if (l.role === 'builder' && l.baseSha) lines.push(`    base ${l.baseSha}`);
  lines.push(...forecastLines(l));
  return [...lines, ...(l.parked ?? []).flatMap(parkedLines)];
}

/** A parked patch under its lane: where it is, and the command that restores it. */
export function parkedLines(p: ParkedPatch): string[] {
  const n = p.paths === null ? '' : ` (${p.paths} ${p.paths === 1 ? 'path' : 'paths'})`;
  return [
    `    parked ${p.patchFile}${n}`,
    `      restore with: ${p.restoreCommand ?? `(no restore line in its header: apply it with git apply --index -p2)`}`,
  ];
}

/** `overlaps with <key> (<lane>): a.ts, b.ts` for `svc lane show`, and the base conflict. */
export function forecastLines(o: Pick<LaneRecord, 'overlaps' | 'baseConflict'>): string[] {
  const lines = o.overlaps.map((x) => `    overlaps with ${x.key} (${x.lane}): ${x.paths.join(', ')}`);
  if (o.baseConflict) lines.push(`    conflicts with its base: ${o.baseConflict.paths.join(', ')}`);
  return lines;
}
