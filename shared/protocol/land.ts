// Landing methods (issue #44): `svc lane land` puts a builder's frozen done head in the
// queue of its project's base; the queue is read for `svc lane runs`; `svc lane pick` ranks
// candidates for it. Sender: the shim.
import { z } from 'zod';
import { LAND_METHODS } from '../config';
import { LANE_KEY, LANE_KEY_RULE, RUN_KEY, RUN_KEY_RULE, VERDICTS } from '../keys';
import { request } from './rpc';

export const LANDING_STATES = ['queued', 'running', 'landed', 'refused', 'failed'] as const;
export type LandingState = (typeof LANDING_STATES)[number];

export const LandCheck = z.object({
  name: z.string(),
  ok: z.boolean(),
  exitCode: z.number().int().nullable(),
  timedOut: z.boolean(),
  durationMs: z.number().int(),
  outputPath: z.string(),
});
export type LandCheck = z.infer<typeof LandCheck>;

export const Landing = z.object({
  id: z.number().int(),
  project: z.string(),
  base: z.string(),
  lane: z.string(),
  laneId: z.number().int(),
  run: z.string(),
  key: z.string(),
  headSha: z.string(),
  method: z.enum(LAND_METHODS),
  state: z.enum(LANDING_STATES),
  /** The base's commit the landing was tested on, and the commit the base moved to (landed only). */
  baseSha: z.string().nullable(),
  landedSha: z.string().nullable(),
  /** The refusal's reason and message (refused, failed). */
  reason: z.string().nullable(),
  message: z.string().nullable(),
  /** The PR it lands through on GitHub (code_host github), once found or opened; null on the local host. */
  pr: z.number().int().nullable(),
  checks: z.array(LandCheck),
  queuedAt: z.number(),
  endedAt: z.number().nullable(),
  /** Place in its base's queue: 0 running, 1 the next … (null once ended). */
  position: z.number().int().nullable(),
});
export type Landing = z.infer<typeof Landing>;

export const LandParams = z
  .object({
    /** The builder lane: `#id`, id or name. */
    lane: z.string().min(1).max(200),
    /** Wait for its turn and the result; else return once queued. */
    wait: z.boolean().default(false),
  })
  .strict();

/** Client → daemon. `svc lane land`: queue the landing of a builder's newest done head on its project's base. */
export const lanesLand = request('lanes/land', LandParams, z.object({ landing: Landing }));

/** Client → daemon. The landing queues (queued and running) and the newest ended landings, for `svc lane runs`. */
export const lanesLandings = request(
  'lanes/landings',
  z.object({ run: z.string().max(64).optional() }).strict(),
  z.object({ landings: z.array(Landing) }),
);

/** One ranked candidate of `svc lane pick` (shared/format/pickRanking.ts ranks them). */
export const PickedCandidate = z.object({
  rank: z.number().int(),
  key: z.string(),
  /** The builder lane whose done head this is: the lane `svc lane land` takes. */
  lane: z.string(),
  head: z.string(),
  checks: z.union([
    z.object({ green: z.literal(true) }),
    z.object({ green: z.literal(false), failed: z.array(z.string()) }),
  ]),
  /** Every check's result on this head (none when no checks are configured). */
  checkResults: z.array(LandCheck),
  failedOutput: z.array(z.object({ name: z.string(), outputPath: z.string() })),
  verdict: z.enum(VERDICTS).nullable(),
  /** The critic or verifier lane whose verdict this is (null: none judged this iteration). */
  verdictBy: z.string().nullable(),
  defects: z.number().int(),
  /** Lines added and removed against the base (from their merge base). */
  diffLines: z.number().int(),
  reasons: z.array(z.string()),
});
export type PickedCandidate = z.infer<typeof PickedCandidate>;

export const PickParams = z
  .object({
    run: z.string().regex(RUN_KEY, RUN_KEY_RULE),
    /** The builder keys to choose among, in the order given (each at most once). */
    keys: z.array(z.string().regex(LANE_KEY, LANE_KEY_RULE)).min(1).max(32),
    /** Which project's run, when the run key is used in several. */
    project: z.string().min(1).max(32).optional(),
  })
  .strict();

export const PickResult = z.object({
  project: z.string(),
  run: z.string(),
  base: z.string(),
  /** The base commit the diffs were measured against. */
  baseSha: z.string(),
  /** Best first. */
  ranking: z.array(PickedCandidate),
  /** Keys without a done head, with why. */
  notCandidates: z.array(z.object({ key: z.string(), lane: z.string().nullable(), reason: z.string() })),
  /** The winner's lane (green checks, ranked first); null when no candidate passes. */
  winner: z.string().nullable(),
});
export type PickResult = z.infer<typeof PickResult>;

/**
 * Client → daemon. `svc lane pick`: best of N — the project checks on each key's newest done
 * head (in parallel), ranked by checks, critic verdict, defects and diff size. Lands nothing.
 */
export const lanesPick = request('lanes/pick', PickParams, PickResult);
