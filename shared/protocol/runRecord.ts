// The run record (`svc run export`): one gauntlet run's facts, and the self-contained HTML
// page made of them. Senders: the shim and the extension (Awareness card "Export Run
// Record…", the palette). Who must stay in sync: docs/protocol.md, server/runRecord/.
import { z } from 'zod';
import { RUN_KEY, RUN_KEY_RULE, VERDICTS } from '../keys';
import { request } from './rpc';
import { FindingInfo } from './review';

const Sha = z.string().nullable();

export const RecordLane = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  role: z.string(),
  key: z.string(),
  iteration: z.number().int(),
  respawn: z.number().int(),
  parentId: z.number().int(),
  judged: z.object({ key: z.string(), iteration: z.number().int() }).nullable(),
  harness: z.string(),
  model: z.string(),
  effort: z.string().nullable(),
  host: z.string().nullable(),
  /** The lane's working directory (on its host, for a lane on one). */
  dir: z.string(),
  activity: z.string(),
  createdAt: z.number(),
  endedAt: z.number().nullable(),
  reapedAt: z.number().nullable(),
  archived: z.boolean(),
  branch: z.string().nullable(),
  startSha: Sha,
  cost: z.number().nullable(),
  /** The lane's spend against its cap, as `svc lane show` says it. */
  budget: z.string(),
});

export const RecordConversation = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  kind: z.string(),
  parentId: z.number().int().nullable(),
  harness: z.string(),
  model: z.string(),
  activity: z.string(),
  cost: z.number().nullable(),
});

export const RecordReport = z.object({
  laneId: z.number().int(),
  lane: z.string(),
  seq: z.number().int(),
  status: z.string(),
  at: z.number(),
  body: z.string(),
  verdict: z.enum(VERDICTS).nullable(),
  defects: z.number().int().nullable(),
  /** The verdict file's defects, one line each (its `title`, else its text), or null when there is none or it cannot be read. */
  defectList: z.array(z.string()).nullable(),
  /** Why the defect list is missing, when a verdict file was named. */
  defectNote: z.string().nullable(),
  headSha: Sha,
  branch: z.string().nullable(),
});

export const RecordDiff = z.object({
  key: z.string(),
  iteration: z.number().int(),
  lane: z.string(),
  base: Sha,
  head: Sha,
  stat: z.string(),
  patch: z.string(),
  /** What was cut to keep the page small, or why there is no diff; null when complete. */
  note: z.string().nullable(),
});

export const RecordEvent = z.object({
  at: z.number(),
  laneId: z.number().int(),
  kind: z.enum(['launch', 'report', 'verdict', 'spend', 'stop', 'reap', 'land']),
  text: z.string(),
});

/** One landing of a builder of the run (`svc lane land`), with its checks' results. */
export const RecordLanding = z.object({
  id: z.number().int(),
  lane: z.string(),
  key: z.string(),
  method: z.string(),
  state: z.string(),
  base: z.string(),
  headSha: z.string(),
  /** The base's commit the landing was tested on, and the one the base moved to (landed only). */
  baseBefore: Sha,
  baseAfter: Sha,
  /** The refusal's reason and message, for a landing that did not land. */
  reason: z.string().nullable(),
  message: z.string().nullable(),
  checks: z.array(
    z.object({
      name: z.string(),
      ok: z.boolean(),
      exitCode: z.number().int().nullable(),
      timedOut: z.boolean(),
      durationMs: z.number().int(),
      /** The check's whole output (under SVC_HOME/land/). */
      logPath: z.string(),
    }),
  ),
  queuedAt: z.number(),
  endedAt: z.number().nullable(),
});

export const RunRecord = z.object({
  project: z.string(),
  run: z.string(),
  exportedAt: z.number(),
  svcVersion: z.string(),
  /** The conversations that launched lanes of the run and are not lanes of it themselves. */
  launchers: z.array(RecordConversation),
  lanes: z.array(RecordLane),
  /** Handoff and fork successors of the run's lanes. */
  successors: z.array(RecordConversation),
  chains: z.array(z.object({ key: z.string(), line: z.string() })),
  reports: z.array(RecordReport),
  diffs: z.array(RecordDiff),
  timeline: z.array(RecordEvent),
  cost: z.object({ total: z.number(), reported: z.boolean(), spend: z.string() }),
  parked: z.array(z.object({ lane: z.string(), file: z.string(), restoreCommand: z.string().nullable() })),
  /** The run's landings, oldest first. */
  landings: z.array(RecordLanding),
  reviews: z.array(
    z.object({
      issue: z.string(),
      title: z.string(),
      runId: z.string(),
      mode: z.string(),
      sha: z.string(),
      verdict: z.string().nullable(),
      phase: z.string(),
      at: z.number(),
      /** The findings the run posted, with their state against the run before (docs/review-findings.md). */
      findings: z.array(FindingInfo),
    }),
  ),
});
export type RunRecord = z.infer<typeof RunRecord>;

export const RunExportParams = z
  .object({
    run: z.string().regex(RUN_KEY, RUN_KEY_RULE),
    project: z.string().min(1).max(32).optional(),
    /** html: the page (and the facts); json: the facts only. */
    format: z.enum(['html', 'json']).default('html'),
  })
  .strict();
/** Client → daemon. `svc run export`, the Awareness card's "Export Run Record…": the run's record as one self-contained HTML page, or its facts as JSON. */
export const runsExport = request(
  'runs/export',
  RunExportParams,
  z.object({ record: RunRecord, html: z.string().nullable() }),
);
