// Lane methods (spec part A). Senders: the shim (`svc lane …`), the extension, and the
// HTTP routes /api/lanes (which validate bodies with the same schemas).
import { z } from 'zod';
import { BudgetUsd, Effort, HostName, Role, SandboxMode } from '../config';
import { LANE_KEY, LANE_KEY_RULE, REPORT_STATUSES, RUN_KEY, RUN_KEY_RULE, VERDICTS } from '../keys';
import { ACTIVITIES } from '../activity';
import { HostLost } from './conversations';
import { notification, request } from './rpc';

const RunKey = z.string().regex(RUN_KEY, RUN_KEY_RULE);
const LaneKey = z.string().regex(LANE_KEY, LANE_KEY_RULE);
/** `#id`, id, name or `conv-<name>`. */
const LaneRef = z.string().min(1).max(200);
const Ref = z.string().min(1).max(255);
const Caller = z.string().max(40).optional();

export const LaunchParams = z
  .object({
    /** SVC_CONVERSATION of the launching agent; absent for a person. */
    caller: Caller,
    key: LaneKey.optional(),
    for: LaneKey.optional(),
    role: Role,
    /** Absolute path of the brief file (the daemon reads it), or the text with `prompt`. */
    brief: z.string().min(1).max(4096).optional(),
    prompt: z.string().min(1).max(1_000_000).optional(),
    run: RunKey.optional(),
    parent: LaneRef.optional(),
    project: z.string().min(1).max(32).optional(),
    model: z.string().trim().min(1).max(200).optional(),
    harness: z.string().min(1).max(32).optional(),
    effort: Effort.optional(),
    title: z.string().min(1).max(200).optional(),
    branch: Ref.optional(),
    from: Ref.optional(),
    at: Ref.optional(),
    reuse: z.boolean().optional(),
    replace: z.boolean().optional(),
    noWait: z.boolean().optional(),
    /** Place the lane on this host of config.yaml `hosts:` (default: the role's gauntlet host, else this machine). */
    host: HostName.optional(),
    /** `workspace`: the agent can change only its own worktree; `off`: it runs as the person (default: the role's, the harness's, else workspace where supported). */
    sandbox: SandboxMode.optional(),
    /** The caller's working directory, to find the project when none is named. */
    cwd: z.string().min(1).max(4096).optional(),
    /** The lane's spend cap in USD (default: gauntlet.roles.<role>.budget; a --reuse keeps the earlier lane's). */
    budget: BudgetUsd.optional(),
  })
  .strict();
export type LaunchParams = z.infer<typeof LaunchParams>;

export const LaneReport = z.object({
  seq: z.number().int(),
  status: z.enum(REPORT_STATUSES),
  body: z.string(),
  verdict: z.enum(VERDICTS).nullable(),
  defects: z.number().int().nullable(),
  verdictFile: z.string().nullable(),
  headSha: z.string().nullable(),
  branch: z.string().nullable(),
  at: z.number(),
});
export type LaneReport = z.infer<typeof LaneReport>;

/** Spent against a cap, in USD. */
export const SpendCap = z.object({
  spent: z.number(),
  /** null: no cap. */
  cap: z.number().nullable(),
  /** Where the cap comes from: the lane's own (`--budget`, a raise), the role's default, the run's raised cap, or the project's per-run cap. */
  from: z.enum(['lane', 'role', 'run', 'project']).nullable(),
});
export type SpendCap = z.infer<typeof SpendCap>;

/** A lane's spend: its own conversation, its successors and the --reuse respawns of its iteration. */
export const LaneBudget = SpendCap.extend({
  /** The run's spend and cap (every lane of the run with their successors). */
  run: SpendCap,
  /** `ok`, `near` (80 % or more of a cap), `reached` (a cap is reached: no turn runs until it is raised), `not-enforceable` (capped, but the harness reports no cost), `none` (no cap). */
  state: z.enum(['none', 'ok', 'near', 'reached', 'not-enforceable']),
  /** One line for people: `$0.42 of $1.00 (42%)`, `budget: not enforceable — script reports no cost`, `$0.12 (no cap)`. */
  text: z.string(),
});
export type LaneBudget = z.infer<typeof LaneBudget>;
/** A parked patch of a lane, with the command that restores it as things stand (in place while the worktree stands). */
export const ParkedPatch = z.object({
  patchFile: z.string(),
  tarFile: z.string().nullable(),
  paths: z.number().int().nullable(),
  restoreCommand: z.string().nullable(),
});
export type ParkedPatch = z.infer<typeof ParkedPatch>;

/** Another live builder of the project changing the same paths relative to the base (derived on read, never stored). */
export const LaneOverlap = z.object({
  key: z.string(),
  lane: z.string(),
  run: z.string(),
  paths: z.array(z.string()),
});
export type LaneOverlap = z.infer<typeof LaneOverlap>;

export const LaneRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  title: z.string(),
  project: z.string(),
  run: z.string(),
  key: z.string(),
  role: Role,
  iteration: z.number().int(),
  respawn: z.number().int(),
  parentId: z.number().int(),
  cwd: z.string(),
  /** The host (config.yaml hosts.<name>) the lane runs on over SSH; null: this machine. `cwd` is a path there. */
  host: z.string().nullable(),
  gitBacked: z.boolean(),
  /** `workspace`: confined to its own worktree; `off`: unconfined, as the person chose. */
  sandbox: SandboxMode,
  judged: z.object({ key: z.string(), iteration: z.number().int() }).nullable(),
  activity: z.enum(ACTIVITIES),
  /** The connection to its host is down: the agent keeps running there and svc is reconnecting. */
  hostLost: HostLost.nullable(),
  /** The recorded spawn error of a failed-to-start lane. */
  spawnError: z.string().nullable(),
  archived: z.boolean(),
  /** `svc lane reap` removed its directory (it may still be listed: `--keep`, or archived). */
  reaped: z.boolean(),
  createdAt: z.number(),
  endedAt: z.number().nullable(),
  model: z.string(),
  harness: z.string(),
  effort: z.string().nullable(),
  cost: z.number().nullable(),
  /** Spent against the lane's and the run's caps. */
  budget: LaneBudget,
  /** The newest report, if any. */
  report: LaneReport.nullable(),
  /** A critic's or verifier's own verdict; for a builder its newest critic's verdict. */
  verdict: z
    .object({
      verdict: z.enum(VERDICTS),
      defects: z.number().int(),
      by: z.number().int(),
      verdictFile: z.string().nullable(),
    })
    .nullable(),
  /** Live git facts for git-backed, non-archived lanes. */
  git: z
    .object({
      branch: z.string().nullable(),
      headSha: z.string().nullable(),
      ahead: z.number().int().nullable(),
      /** Set when the branch has no upstream: `ahead` then counts its commits since the lane's base. */
      aheadOfBase: z.literal(true).optional(),
      dirty: z.boolean(),
    })
    .nullable(),
  /** Why `git` is null for a lane that should have facts: `git did not answer within 5 s`. Null otherwise. */
  gitUnavailable: z.string().nullable(),
  /** Every patch `svc lane reap --park` left for this lane (a reap killed mid-park included), oldest first. */
  parked: z.array(ParkedPatch).default([]),
  /** The commit the lane's worktree was created from (a --reuse respawn: its directory's first lane's); null: a play lane, or unknown (a lane launched before svc kept it). */
  baseSha: z.string().nullable().default(null),
  /** A live builder's overlap forecast: the other live builders of its project changing the same paths. */
  overlaps: z.array(LaneOverlap).default([]),
  /** A live builder whose branch no longer merges cleanly into its project's base: the conflicting paths. */
  baseConflict: z
    .object({ paths: z.array(z.string()) })
    .nullable()
    .default(null),
});
export type LaneRecord = z.infer<typeof LaneRecord>;

/** Client → daemon. `svc lane start`: launch a lane (all launch rules checked here). */
export const lanesStart = request('lanes/start', LaunchParams, LaneRecord);

export const ListParams = z
  .object({ run: RunKey.optional(), parent: LaneRef.optional(), key: LaneKey.optional() })
  .strict();
/** Client → daemon. `svc lane list`, GET /api/lanes: lanes with activity and git facts. */
export const lanesList = request('lanes/list', ListParams, z.object({ lanes: z.array(LaneRecord) }));

/** Client → daemon. One lane by reference, or by run and key (the newest lane). */
export const lanesGet = request(
  'lanes/get',
  z.object({ lane: LaneRef.optional(), run: RunKey.optional(), key: LaneKey.optional() }).strict(),
  LaneRecord,
);

/** Client → daemon. `svc lane show`: the builder-to-critic chain of a key and its lanes. */
export const lanesShow = request(
  'lanes/show',
  z.object({ lane: LaneRef.optional(), run: RunKey.optional(), key: LaneKey.optional() }).strict(),
  z.object({ chain: z.string(), lines: z.array(z.string()), lanes: z.array(LaneRecord) }),
);

/** The longest report body, in characters: the CLI refuses a longer one before sending it. */
export const REPORT_BODY_MAX = 1_000_000;

export const ReportParams = z
  .object({
    caller: Caller,
    status: z.enum(REPORT_STATUSES).default('done'),
    body: z.string().max(REPORT_BODY_MAX),
    verdict: z.enum(VERDICTS).optional(),
    defects: z.number().int().min(0).max(100_000).optional(),
    /** Absolute path; the daemon reads it and counts its `defects` array. */
    verdictFile: z.string().min(1).max(4096).optional(),
    allowUnpushed: z.boolean().optional(),
    /** One per `svc lane report` invocation, kept across its retries: the daemon answers a
     *  repeated id with the report it already stored instead of filing another. */
    requestId: z
      .string()
      .regex(/^[A-Za-z0-9_-]{8,64}$/, 'a request id is 8 to 64 letters, digits, _ or -')
      .optional(),
  })
  .strict();
/** Lane agent → daemon. `svc lane report`: file a report (report rules checked here). */
export const lanesReport = request('lanes/report', ReportParams, z.object({ lane: z.string(), report: LaneReport }));

export const WaitParams = z
  .object({
    lane: LaneRef.optional(),
    run: RunKey.optional(),
    parent: LaneRef.optional(),
    after: z.string().max(300).optional(),
    timeoutS: z.number().int().min(0).max(86_400).optional(),
  })
  .strict();
export const WaitResult = z.object({
  /** report: a report was filed; silent: the lane exited or sat idle 10 minutes without one; timeout. */
  outcome: z.enum(['report', 'silent', 'timeout']),
  lane: z.string().nullable(),
  report: LaneReport.nullable(),
  /** Why a silent outcome: `exited` or `idle`. */
  why: z.string().nullable(),
  /** The command to run next (with the new cursor). */
  next: z.string(),
});
/** Client → daemon. `svc lane wait`: blocks until the next report (event-driven). */
export const lanesWait = request('lanes/wait', WaitParams, WaitResult);

/** Client → daemon. `svc lane stop`: the conversation stop door. */
export const lanesStop = request(
  'lanes/stop',
  z.object({ lane: LaneRef }).strict(),
  z.object({ lane: z.string(), stopped: z.boolean() }),
);

/** A landing of the run waiting or running in its base's queue (`svc lane land`, issue #44). */
export const RunCardLanding = z.object({
  id: z.number().int(),
  lane: z.string(),
  laneId: z.number().int(),
  base: z.string(),
  state: z.enum(['queued', 'running']),
  /** Place in its base's queue, every run's landings counted: 0 running, 1 the next … */
  position: z.number().int(),
  /** The GitHub PR it lands through, once known; null on the local host. */
  pr: z.number().int().nullable(),
});
export type RunCardLanding = z.infer<typeof RunCardLanding>;

export const RunCard = z.object({
  project: z.string(),
  run: z.string(),
  launcherId: z.number().int(),
  launcherName: z.string(),
  lanes: z.number().int(),
  counts: z.record(z.string(), z.number().int()),
  countsLine: z.string(),
  latest: z.object({ at: z.number(), text: z.string(), kind: z.enum(['report', 'failed-start', 'end', 'launch']) }),
  /** The run's spend (every lane with its successors) against its cap, and how many lanes are stopped at a cap. */
  spend: SpendCap.extend({ text: z.string(), reached: z.number().int() }),
  /** The run's landings queued or running, in queue order (none: empty). */
  landings: z.array(RunCardLanding),
});
export type RunCard = z.infer<typeof RunCard>;
/** Client → daemon. Awareness rail cards, one per gauntlet run, derived on every read. */
export const lanesRuns = request('lanes/runs', z.object({}).strict(), z.object({ cards: z.array(RunCard) }));

export const BudgetParams = z
  .object({
    /** SVC_CONVERSATION of the calling agent (the lane's launcher or one of its ancestors); absent for a person. */
    caller: Caller,
    /** The lane whose cap is set (its iteration's newest lane takes it); or `run` for the run's cap. */
    lane: LaneRef.optional(),
    run: RunKey.optional(),
    project: z.string().min(1).max(32).optional(),
    usd: BudgetUsd,
  })
  .strict();
export const BudgetResult = z.object({
  /** `lane <name>` or `run <project>/<run>`. */
  target: z.string(),
  cap: z.number(),
  spent: z.number(),
  /** Lanes that were stopped at a cap and may take turns again (their held messages go on). */
  released: z.array(z.string()),
  /** Lanes still stopped at another cap (the run's, or their own). */
  stillHeld: z.array(z.object({ lane: z.string(), text: z.string() })),
});
/** Client → daemon. `svc lane budget`: set or raise a lane's or a run's spend cap (a person, or the lane's launcher or an ancestor of it). */
export const lanesBudget = request('lanes/budget', BudgetParams, BudgetResult);

/** Daemon → clients. A lane report was filed (views and waiters re-read). */
export const laneReported = notification(
  'lanes/reported',
  z.object({ lane: z.string(), run: z.string(), seq: z.number().int() }),
);

export const ReapParams = z
  .object({ lane: LaneRef, park: z.boolean().default(false), keep: z.boolean().default(false) })
  .strict();
/** The HTTP body of POST /api/lanes/:name/reap. */
export const ReapBody = z.object({ park: z.boolean().default(false), keep: z.boolean().default(false) }).strict();
/** What a park copied (or would copy) into SVC_HOME: the dirty files' bytes, the largest first. */
export const ParkSize = z.object({
  bytes: z.number().int(),
  largest: z.array(z.object({ path: z.string(), bytes: z.number().int() })),
});
export type ParkSize = z.infer<typeof ParkSize>;
export const ReapResult = z.object({
  conv: z.object({ id: z.union([z.number(), z.string()]), name: z.string() }),
  dir: z.string(),
  removed: z.enum(['worktree', 'playDir', 'alreadyGone']),
  branch: z.string().nullable(),
  head: z.string().nullable(),
  upstream: z.string().nullable(),
  unpushed: z.array(z.object({ sha: z.string(), subject: z.string() })),
  keptBranch: z.string().nullable(),
  /** Branches reap created for commits only the worktree's reflog or its own refs held (its detached HEAD's are keptBranch). */
  keptRefs: z.array(z.object({ branch: z.string(), sha: z.string(), commits: z.number().int() })).default([]),
  park: z
    .object({
      patchFile: z.string(),
      files: z.number().int(),
      head: z.string(),
      branch: z.string().nullable(),
      restoreCommand: z.string(),
      restoreAfterRemoveCommand: z.string(),
    })
    .nullable(),
  archive: z.union([
    z.object({ state: z.literal('archived') }),
    z.object({ state: z.literal('kept') }),
    z.object({ state: z.literal('failed'), error: z.string() }),
  ]),
  orphaned: z.array(z.string()),
  /** Patches parked for this lane before this reap (an earlier reap, one killed mid-park): never lost from sight. */
  earlierParked: z.array(ParkedPatch).default([]),
  /** Set when the park was over config.yaml's reap.park_warn_mb (its value in MiB beside it). */
  largePark: ParkSize.extend({ warnMb: z.number() }).nullable().default(null),
});
/** Client → daemon. `svc lane reap`: the spec's Reap steps 1–7; never kills, never discards work. */
export const lanesReap = request('lanes/reap', ReapParams, ReapResult);

export const PushParams = z
  .object({
    /** SVC_CONVERSATION of the pushing lane; the daemon takes the caller it resolved. */
    caller: Caller,
    /** The push URL as the lane's git names it (after `svc::`): a local bare repository of the project. */
    remote: z.string().min(1).max(4096),
    /** One per refspec git hands the remote helper: the commit to set (null deletes) and the full ref. */
    updates: z
      .array(
        z
          .object({
            sha: z
              .string()
              .regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/)
              .nullable(),
            ref: Ref,
            force: z.boolean(),
          })
          .strict(),
      )
      .min(1)
      .max(100),
  })
  .strict();
export const PushResult = z.object({
  /** In the order asked: `error` is git's status word for the remote helper (`non-fast-forward`) or why svc refused it. */
  results: z.array(z.object({ ref: z.string(), ok: z.boolean(), error: z.string().optional() })),
});
/** Client → daemon. `git push` from a local lane (bin/git-remote-svc): the daemon pushes for the lane, by the lane ref policy. */
export const lanesPush = request('lanes/push', PushParams, PushResult);
