// The facts of one gauntlet run's record, read at export time: the lanes and the
// conversations around them, chains, reports with their defect lists, builder diffs, a
// timeline, cost, parked patches, landings and the review convoys of the run's issues. Home paths and
// credentials are scrubbed from the result as a whole (redact.ts), never field by field.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Landing } from '../../shared/protocol/land';
import type { RunRecord } from '../../shared/protocol/runRecord';
import { isSpendReport } from '../../shared/keys';
import { SVC_VERSION } from '../../shared/version';
import { formatCost } from '../../shared/format/money';
import { verdictDefects, VERDICT_FILE_MAX } from '../lanes/reports';
import { siteOf } from '../lanes/laneSite';
import { LaneFileError } from '../util/laneFileRead';
import type { LanesContext } from '../lanes/lanesContext';
import type { LaneRow } from '../lanes/laneStore';
import { laneRecords } from '../lanes/records';
import { chainLine } from '../lanes/show';
import { SpendBook, capText } from '../lanes/spend';
import { readJournal } from '../review/journal';
import { findingsOfRun } from '../review/runFindings';
import { runsOf } from '../review/runs';
import { builderDiffs } from './diffs';
import type { RunRecordPorts } from './ports';
import { runNotFoundError, runInSeveralProjectsError } from './runRecordRefusals';

type Conv = RunRecord['launchers'][number];

export function runLanes(ctx: LanesContext, run: string, project: string | undefined): LaneRow[] {
  const all = ctx.store.ofRun(run).filter((l) => project === undefined || l.project === project);
  const projects = [...new Set(all.map((l) => l.project))];
  if (projects.length === 0) throw runNotFoundError(run, project);
  if (projects.length > 1) throw runInSeveralProjectsError(run, projects);
  return all;
}

export async function collectRunRecord(
  ports: RunRecordPorts,
  run: string,
  projectKey: string | undefined,
): Promise<RunRecord> {
  const { lanes: ctx } = ports;
  const rows = runLanes(ctx, run, projectKey);
  const project = rows[0].project;
  const records = await laneRecords(ctx, rows);
  const book = new SpendBook(ctx, [run]);
  const laneIds = new Set(rows.map((l) => l.id));

  const conv = (id: number): Conv | null => {
    const c = ports.conversation(id);
    return c
      ? {
          id: c.id,
          name: c.name,
          title: c.title,
          kind: c.kind,
          parentId: c.parentId,
          harness: c.harness,
          model: c.model,
          activity: c.activity,
          cost: c.cost,
        }
      : null;
  };
  const launchers = [...new Set(rows.map((l) => l.parentId).filter((id) => !laneIds.has(id)))]
    .map(conv)
    .filter((c): c is Conv => c !== null);
  const successors = ports
    .successorsOf([...laneIds])
    .map(conv)
    .filter((c): c is Conv => c !== null);

  const keys = [...new Set(records.map((l) => l.key))];
  const chains = keys.map((key) => ({ key, line: chainLine(records.filter((l) => l.key === key)) }));

  const reports: RunRecord['reports'] = [];
  const timeline: RunRecord['timeline'] = [];
  for (const l of rows) {
    timeline.push({
      at: l.createdAt,
      laneId: l.id,
      kind: 'launch',
      text: `${l.name} launched (${l.harness}, ${l.model})`,
    });
    if (l.endedAt !== null) timeline.push({ at: l.endedAt, laneId: l.id, kind: 'stop', text: `${l.name} ended` });
    if (l.reapedAt !== null) timeline.push({ at: l.reapedAt, laneId: l.id, kind: 'reap', text: `${l.name} reaped` });
    for (const r of ctx.store.reports(l.id)) {
      const defects = r.verdictFile ? await defectList(ctx, l, r.verdictFile) : { list: null, note: null };
      reports.push({ laneId: l.id, lane: l.name, ...r, defectList: defects.list, defectNote: defects.note });
      const spend = isSpendReport(r);
      const kind = r.verdict ? 'verdict' : spend ? 'spend' : 'report';
      timeline.push({
        at: r.at,
        laneId: l.id,
        kind,
        text: `${l.name} reported ${r.status}${r.verdict ? ` · verdict ${r.verdict} (${r.defects ?? 0})` : ''}`,
      });
    }
  }
  const landings = ports.landings([...laneIds]);
  for (const l of landings) if (l.endedAt !== null) timeline.push(landingEvent(l));
  timeline.sort((a, b) => a.at - b.at);

  const runCap = book.runCap(project, run);
  const reported = rows.some((l) => l.costAmount !== null);
  return {
    project,
    run,
    exportedAt: ctx.now(),
    svcVersion: SVC_VERSION,
    launchers,
    lanes: rows.map((l, i) => ({
      id: l.id,
      name: l.name,
      title: l.title,
      role: l.role,
      key: l.key,
      iteration: l.iteration,
      respawn: l.respawn,
      parentId: l.parentId,
      judged: records[i].judged,
      harness: l.harness,
      model: l.model,
      effort: l.effort,
      host: l.host,
      dir: l.dir,
      activity: records[i].activity,
      createdAt: l.createdAt,
      endedAt: l.endedAt,
      reapedAt: l.reapedAt,
      archived: l.archivedAt !== null,
      branch: l.branch,
      startSha: l.startSha,
      cost: l.costAmount,
      budget: records[i].budget.text,
    })),
    successors,
    chains,
    reports,
    diffs: await builderDiffs(ctx, rows, reports),
    timeline,
    cost: {
      total: runCap.spent,
      reported,
      spend:
        runCap.cap !== null ? capText(runCap) : `${reported ? formatCost(runCap.spent) : 'no cost reported'} (no cap)`,
    },
    parked: parkedPatches(ctx, rows),
    landings: landings.map(landingOf),
    reviews: reviewsOf(ports, rows, launchers),
  };
}

function landingEvent(l: Landing): RunRecord['timeline'][number] {
  const text =
    l.state === 'landed'
      ? `${l.lane} landed on ${l.base} (${l.method}; ${(l.baseSha ?? '').slice(0, 7)}..${(l.landedSha ?? '').slice(0, 7)})`
      : `landing of ${l.lane} ${l.state}${l.reason ? ` (${l.reason})` : ''}; ${l.base} unchanged`;
  return { at: l.endedAt!, laneId: l.laneId, kind: 'land', text };
}

function landingOf(l: Landing): RunRecord['landings'][number] {
  return {
    id: l.id,
    lane: l.lane,
    key: l.key,
    method: l.method,
    state: l.state,
    base: l.base,
    headSha: l.headSha,
    baseBefore: l.baseSha,
    baseAfter: l.state === 'landed' ? l.landedSha : null,
    reason: l.reason,
    message: l.message,
    checks: l.checks.map((c) => ({
      name: c.name,
      ok: c.ok,
      exitCode: c.exitCode,
      timedOut: c.timedOut,
      durationMs: c.durationMs,
      logPath: c.outputPath,
    })),
    queuedAt: l.queuedAt,
    endedAt: l.endedAt,
  };
}

/** The defects of a verdict file, one line each, read where the lane ran. */
async function defectList(
  ctx: LanesContext,
  lane: LaneRow,
  file: string,
): Promise<{ list: string[] | null; note: string | null }> {
  try {
    // Read as the lane's file (no link, FIFO or device, bounded): the lane may have changed it since.
    const text = await siteOf(ctx, lane).readLaneFile(file, VERDICT_FILE_MAX);
    return { list: verdictDefects(file, text).map(defectLine), note: null };
  } catch (e) {
    // A reap removes the worktree's git dir, where a sandboxed judge keeps its verdict file.
    const gone = e instanceof LaneFileError && e.problem.kind === 'outside' && lane.reapedAt !== null;
    return {
      list: null,
      note: gone
        ? `verdict file ${file} went with the lane's folders when it was reaped: not read at export`
        : e instanceof LaneFileError
          ? `verdict file ${file} ${e.message}: not read at export`
          : `verdict file ${file} could not be read at export: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    };
  }
}

function defectLine(d: unknown): string {
  if (typeof d === 'string') return d;
  if (d && typeof d === 'object') {
    const o = d as Record<string, unknown>;
    for (const k of ['title', 'summary', 'what', 'description', 'text', 'message'])
      if (typeof o[k] === 'string') return o[k];
  }
  return JSON.stringify(d);
}

/** `parked-<stamp>.patch` files beside each lane's brief, with the restore command their header holds. */
function parkedPatches(ctx: LanesContext, rows: LaneRow[]): RunRecord['parked'] {
  const out: RunRecord['parked'] = [];
  for (const l of rows) {
    const dir = path.join(ctx.app.paths.agents, `conv-${l.name}`);
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((n) => /^parked-.*\.patch$/.test(n));
    } catch {
      continue;
    }
    for (const n of names.sort()) {
      const file = path.join(dir, n);
      out.push({ lane: l.name, file, restoreCommand: restoreLine(file) });
    }
  }
  return out;
}

function restoreLine(file: string): string | null {
  try {
    const head = fs.readFileSync(file, 'utf8').slice(0, 8192);
    const m = /^restore: (".*")$/m.exec(head);
    return m ? (JSON.parse(m[1]) as string) : null;
  } catch {
    return null;
  }
}

/** Review convoys of the run's issues: the issues of the conversations that launched the run (a work agent orchestrating). */
function reviewsOf(ports: RunRecordPorts, rows: LaneRow[], launchers: Conv[]): RunRecord['reviews'] {
  const issues = new Set<string>();
  for (const c of launchers) {
    const issue = ports.issueOf(c.id);
    if (issue) issues.add(issue);
  }
  for (const l of rows) {
    const issue = ports.issueOf(l.id);
    if (issue) issues.add(issue);
  }
  const out: RunRecord['reviews'] = [];
  for (const id of issues) {
    const issue = ports.issue(id);
    if (!issue) continue;
    const journal = readJournal(issue.workspace);
    for (const r of runsOf(journal).values()) {
      out.push({
        issue: id,
        title: issue.title,
        runId: r.runId,
        mode: r.mode,
        sha: r.sha,
        verdict: r.verdict,
        phase: r.phase,
        at: r.bornAt,
        findings: r.phase === 'verdict' ? (findingsOfRun(issue.workspace, journal, r.runId) ?? []) : [],
      });
    }
  }
  return out;
}
