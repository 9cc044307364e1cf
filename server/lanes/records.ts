// Lane records as every reader sees them: the row, activity computed now from the row
// and the live harness facts (shared/activity.ts), reports, verdicts and git facts.
import { activityOf } from '../../shared/activity';
import type { Activity } from '../../shared/activity';
import type { LaneRecord, LaneReport } from '../../shared/protocol/lanes';
import { gitFacts } from '../git/git';
import type { GitFacts } from '../git/git';
import type { ConversationsPort } from './conversationsPort';
import type { LaneRow, LaneStore } from './laneStore';

export interface LaneReader {
  store: LaneStore;
  conversations: ConversationsPort;
  now(): number;
  cost(id: number): number | null;
}

export function laneActivity(r: LaneReader, row: LaneRow): Activity {
  const live = r.conversations.facts(row.id);
  return activityOf({
    spawnError: row.spawnError !== null,
    alive: live.alive,
    needsYou: live.needsYou,
    working: live.working,
    ended: row.endedAt !== null,
    archived: row.archivedAt !== null,
    createdAt: row.createdAt,
    now: r.now(),
  });
}

/** The done report with a verdict of a critic or verifier lane, if filed. */
export function verdictReport(r: LaneReader, row: LaneRow): LaneReport | undefined {
  return r.store.reports(row.id).find((x) => x.status === 'done' && x.verdict !== null);
}

/** Critic and verifier lanes judging builder iteration `iteration` of run/key, oldest first. */
export function judgesOf(r: LaneReader, run: string, key: string, iteration: number): LaneRow[] {
  return r.store
    .ofRun(run)
    .filter((l) => (l.role === 'critic' || l.role === 'verifier') && l.judgedKey === key && l.judgedIteration === iteration);
}

function verdictOf(r: LaneReader, row: LaneRow): LaneRecord['verdict'] {
  const judges = row.role === 'builder' ? judgesOf(r, row.run, row.key, row.iteration) : row.role === 'critic' || row.role === 'verifier' ? [row] : [];
  for (const j of [...judges].reverse()) {
    const v = verdictReport(r, j);
    if (v) return { verdict: v.verdict!, defects: v.defects ?? 0, by: j.id, verdictFile: v.verdictFile };
  }
  return null;
}

export async function laneRecord(r: LaneReader, row: LaneRow, withGit = true): Promise<LaneRecord> {
  const activity = laneActivity(r, row);
  let git: GitFacts | null = null;
  if (withGit && row.gitBacked && row.archivedAt === null) git = await gitFacts(row.dir).catch(() => null);
  return {
    id: row.id,
    name: row.name,
    title: row.title,
    project: row.project,
    run: row.run,
    key: row.key,
    role: row.role,
    iteration: row.iteration,
    respawn: row.respawn,
    parentId: row.parentId,
    cwd: row.dir,
    gitBacked: row.gitBacked,
    judged: row.judgedKey !== null && row.judgedIteration !== null ? { key: row.judgedKey, iteration: row.judgedIteration } : null,
    activity,
    spawnError: row.spawnError,
    archived: row.archivedAt !== null,
    createdAt: row.createdAt,
    endedAt: row.endedAt,
    model: row.model,
    harness: row.harness,
    effort: row.effort,
    cost: r.cost(row.id),
    report: r.store.newestReport(row.id) ?? null,
    verdict: verdictOf(r, row),
    git: git ? { branch: git.branch, headSha: git.headSha, ahead: git.ahead, dirty: git.dirty } : null,
  };
}

/** Records of many lanes; git facts gathered in parallel (bounded), one status call each. */
export async function laneRecords(r: LaneReader, rows: LaneRow[]): Promise<LaneRecord[]> {
  const out: LaneRecord[] = new Array(rows.length);
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const i = next++;
      out[i] = await laneRecord(r, rows[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, rows.length) }, worker));
  return out;
}
