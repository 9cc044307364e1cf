// A local lane's `git push` arrives here (bin/git-remote-svc → lanes/push over the lane's
// own socket): the remote the lane names must be a local push remote of its project, and
// each ref passes the lane ref policy before the daemon pushes it from where the lane's
// commits are: its own repository (lanes.git: own, laneGitRepo.ts), else the project's. The remote itself is read-only inside the
// sandbox, so this is the only way a sandboxed lane's branch reaches it.
//
// The policy, by role and lineage: a lane updates only branches of lanes it is or launched
// (its own, for a builder, critic, verifier or play lane, which launch nothing; an
// orchestrator's, those of its lanes too), and no lane moves the project's base branch at
// all (fast-forward, force or delete): the base changes only by a merged PR.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { z } from 'zod';
import type { PushParams, PushResult } from '../../shared/protocol/lanes';
import type { Caller } from '../authority/caller';
import { isSelfOrDescendant } from '../authority/lineage';
import { gitPlaces } from '../git/gitPlaces';
import { isValidBranchName } from '../git/git';
import { spawnGit } from '../git/gitExec';
import { mirrorLaneRefs } from './laneGitMirror';
import { ownLaneRepo } from './laneGitRepo';
import type { LanesContext } from './lanesContext';
import type { LaneRow } from './laneStore';
import { isHere } from './laneWhere';
import { pushNotFromLaneError, pushRemoteNotLocalError, refRefused } from './pushRefusals';

type Params = z.output<typeof PushParams>;
type Result = z.output<typeof PushResult>;
type Update = Params['updates'][number];

/** A push of one ref waits this long for git (a local remote; only a git that hangs is given up on). */
const PUSH_TIMEOUT_MS = 120_000;

/** What the policy needs to know of the ref's branch: the base, and whether some lane of the pusher's lineage owns it. */
export interface RefFacts {
  base: string | undefined;
  /** The lanes whose branch it is, and whether the pusher is each or launched it. */
  owners: { name: string; mine: boolean }[];
}

/** Why the policy refuses `u` (the words git shows), or undefined when the lane may push it. */
export function refPolicy(u: Update, lane: LaneRow, facts: (branch: string) => RefFacts): string | undefined {
  if (!u.ref.startsWith('refs/heads/')) return refRefused.notABranch(u.ref);
  const branch = u.ref.slice('refs/heads/'.length);
  const f = facts(branch);
  if (f.base !== undefined && branch === f.base) return refRefused.base(f.base, lane);
  if (!f.owners.some((o) => o.mine)) return refRefused.notOwn(branch, lane, f.owners[0]?.name);
  return undefined;
}

export async function pushForLane(ctx: LanesContext, caller: Caller, p: Params): Promise<Result> {
  const lane = caller.kind === 'agent' ? ctx.store.byId(caller.conv.id) : undefined;
  if (!lane || !isHere(lane)) throw pushNotFromLaneError();
  const repo = ctx.repoOf(lane.project);
  const remote = repo ? await projectRemote(repo, p.remote) : undefined;
  if (!repo || !remote) throw pushRemoteNotLocalError(p.remote, lane.project);
  const base = ctx.app.config.projects().projects[lane.project]?.default_branch;
  const get = (id: number) => ctx.conversations.get(id);
  const facts = (branch: string): RefFacts => ({
    base,
    owners: ctx.store.ofBranch(lane.project, branch).map((o) => {
      const row = get(o.id);
      return { name: o.name, mine: row !== undefined && isSelfOrDescendant(get, lane.id, row) };
    }),
  });
  // Where the lane's commits are: its own repository (lanes.git: own), else the project's.
  const own = ownLaneRepo(lane.dir);
  const from = own ?? repo;
  const results: Result['results'] = [];
  // One at a time, in git's order: each answer is that ref's own.
  for (const u of p.updates) {
    const error = refPolicy(u, lane, facts) ?? (await refUsable(from, u)) ?? (await pushOne(from, remote, u));
    results.push(error === undefined ? { ref: u.ref, ok: true } : { ref: u.ref, ok: false, error });
  }
  // The lane's branch as pushed, into the person's repository too (laneGitMirror.ts); the
  // push went either way, so a mirror that fails is left to the next report or the reap.
  if (own && lane.branch && results.some((r) => r.ok))
    await mirrorLaneRefs(repo, lane.dir, [`refs/heads/${lane.branch}`], lane.branch).catch(() => undefined);
  return { results };
}

/** The real path of `url` when it is a local push remote of the project's repository. */
async function projectRemote(repo: string, url: string): Promise<string | undefined> {
  const local = url.startsWith('file://') ? url.slice('file://'.length) : url;
  if (!path.isAbsolute(local)) return undefined;
  let real: string;
  try {
    real = fs.realpathSync(local);
  } catch {
    return undefined;
  }
  const places = await gitPlaces(repo, process.env);
  return places.localRemotes.includes(real) ? real : undefined;
}

/** A branch name git takes and a commit the project's repository has (the lane's objects are there). */
async function refUsable(repo: string, u: Update): Promise<string | undefined> {
  if (!(await isValidBranchName(repo, u.ref.slice('refs/heads/'.length)))) return refRefused.badName(u.ref);
  if (u.sha === null) return undefined;
  const r = await spawnGit(repo, ['cat-file', '-e', `${u.sha}^{commit}`], { timeoutMs: PUSH_TIMEOUT_MS });
  return r.code === 0 ? undefined : refRefused.noCommit(u.sha);
}

/**
 * Pushes one ref with the project's git, without its pre-push hook (it ran in the lane's own
 * `git push`, inside the sandbox). Undefined when it went; else git's status words for the
 * remote helper (`non-fast-forward`, `fetch first`) or what the remote said.
 */
async function pushOne(repo: string, remote: string, u: Update): Promise<string | undefined> {
  const spec = `${u.force ? '+' : ''}${u.sha ?? ''}:${u.ref}`;
  const r = await spawnGit(repo, ['push', '--porcelain', '--no-verify', remote, spec], {
    extra: { GIT_TERMINAL_PROMPT: '0' },
    timeoutMs: PUSH_TIMEOUT_MS,
  }).catch((e: unknown) => ({ code: -1, stdout: Buffer.alloc(0), stderr: (e as Error).message }));
  if (r.code === 0) return undefined;
  const line = r.stdout
    .toString('utf8')
    .split('\n')
    .find((l) => l.startsWith('!\t') && l.split('\t')[1]?.endsWith(`:${u.ref}`));
  const why = line ? /\((.+)\)\s*$/.exec(line)?.[1] : undefined;
  if (why) return why;
  const last = r.stderr.trim().split('\n').pop() ?? '';
  return refRefused.gitFailed(last.replace(/^(error|fatal): /, '') || `git exited with ${r.code}`);
}
