// Landing methods (issue #44): `svc lane land` puts a builder's frozen done head in the
// queue of its project's base; the queue is read for `svc lane runs`. Sender: the shim.
import { z } from 'zod';
import { LAND_METHODS } from '../config';
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
