// Every refusal of lanes (the spec's launch Refusal table and the rest of a launch, the
// lanes root, lookups, wait, tell, reap on a host), each message made here and nowhere
// else (docs/style.md §16). Reasons: shared/refusals/lanes.ts; a report's are in reportRefusals.ts.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import type { Verdict } from '../../shared/keys';
import { LANE_REFUSALS } from '../../shared/refusals/lanes';
import { iterationJudgedMessage } from './reportRefusals';
import { problemText } from '../util/laneFileRead';
import type { LaneFileProblem } from '../util/laneFileRead';

const { usage, notFound, refused, conflict } = refusalsOf(LANE_REFUSALS);

/** A lane or conversation as the refusals name it. */
interface Ref {
  id: number;
  name: string;
}
/** A lane with its place in the run. */
interface LaneRef extends Ref {
  role: string;
  key: string;
  iteration: number;
  dir: string;
}

// ---- Launch: who, which role, key and run, settings (launch rules: launchRules.ts)

export function parentNotSelfError(parent: string, self: number): SvcError<'parentNotSelf'> {
  return refused(
    'parentNotSelf',
    `--parent ${parent} is not this conversation (#${self}); an agent launches lanes as itself`,
  );
}

export function noLauncherError(): SvcError<'noLauncher'> {
  return usage(
    'noLauncher',
    'svc lane start needs a launching conversation: run it inside one (SVC_CONVERSATION) or pass --parent <conv>',
  );
}

/** `who`: the launcher in words (`a root conversation`, `a builder lane`); `allowed`: who may. */
export function roleNotPermittedError(who: string, role: string, allowed: string): SvcError<'roleNotPermitted'> {
  return refused('roleNotPermitted', `${who} may not launch ${an(role)} lane; ${an(role)} is launched by ${allowed}`);
}
export const an = (word: string) => `${/^[aeiou]/.test(word) ? 'an' : 'a'} ${word}`;

export function forOnJudgesError(role: string): SvcError<'forOnJudges'> {
  return usage('forOnJudges', `--for is for critic and verifier lanes, not a ${role}`);
}

export function criticWithoutForError(): SvcError<'criticWithoutFor'> {
  return refused('criticWithoutFor', 'a critic needs --for <builder key>: the builder it judges');
}

export function keyDiffersFromForError(key: string, forKey: string, role: string): SvcError<'keyDiffersFromFor'> {
  return refused(
    'keyDiffersFromFor',
    `--key ${key} differs from --for ${forKey}; a ${role} takes the key of the builder it judges`,
  );
}

/** Critic rule 5 (blindness): the brief names a builder conversation of the judged key, or quotes one of its reports. */
export const criticNotBlind = {
  names: (name: string): SvcError<'criticNotBlind'> =>
    refused(
      'criticNotBlind',
      `a critic's brief must not name the builder conversation ${name}: a critic is blind to the builder and judges the commit alone; take the name out of the brief`,
    ),
  quotes: (name: string, seq: number): SvcError<'criticNotBlind'> =>
    refused(
      'criticNotBlind',
      `a critic's brief must not quote a builder's report (report ${seq} of ${name}): a critic is blind to the builder and judges the commit alone; take the report text out of the brief`,
    ),
};

export function noKeyError(): SvcError<'noKey'> {
  return usage('noKey', 'pass --key <key> (or --for <builder key> for a critic or verifier)');
}

export function runMismatchError(run: string, given: string): SvcError<'runMismatch'> {
  return refused('runMismatch', `an orchestrator lane's lanes join its run '${run}'; drop --run ${given}`);
}

export function runRequiredError(): SvcError<'runRequired'> {
  return refused('runRequired', '--run <key> is required when launching from a root conversation');
}

export function noModelError(role: string, project: string): SvcError<'noModel'> {
  return refused(
    'noModel',
    `no model for the ${role} role: pass --model <m> or set gauntlet.roles.${role}.model for project '${project}' in projects.yaml (there is no default model)`,
  );
}

export function unknownHarnessError(harness: string): SvcError<'unknownHarness'> {
  return usage(
    'unknownHarness',
    `unknown harness '${harness}': use claude, codex, gemini, script or a profile of config.yaml`,
  );
}

// ---- Launch: the request (launch.ts)

export function noProjectError(): SvcError<'noProject'> {
  return usage('noProject', 'no project: pass --project <key> (see svc project list)');
}

export function briefOrPromptError(): SvcError<'briefOrPrompt'> {
  return usage('briefOrPrompt', 'pass exactly one of --brief <file> or --prompt <text>');
}

/** The brief file does not exist, is not a file, is too large, or cannot be read (`why`). */
export const badBrief = {
  missing: (file: string): SvcError<'badBrief'> => usage('badBrief', `brief ${file} does not exist`),
  notAFile: (file: string): SvcError<'badBrief'> => usage('badBrief', `brief ${file} is not a file`),
  tooLarge: (file: string): SvcError<'badBrief'> => usage('badBrief', `brief ${file} is larger than 1 MB`),
  unreadable: (file: string, why: string): SvcError<'badBrief'> =>
    usage('badBrief', `brief ${file} cannot be read: ${why}`),
  /** An agent's brief path: outside its own folders (the same words whether or not it exists), or not a regular file. */
  notLanes: (file: string, problem: LaneFileProblem): SvcError<'badBrief'> =>
    usage(
      'badBrief',
      problem.kind === 'outside'
        ? `brief ${file} is not inside the launching agent's own folders; svc reads for an agent only what it could write itself`
        : `brief ${file} ${problemText(problem)}`,
    ),
};

export function branchOnlyBuilderError(role: string): SvcError<'branchOnlyBuilder'> {
  return usage('branchOnlyBuilder', `--branch is for builder lanes; a ${role} works detached`);
}

/** `flag`: `--from` (a builder's start point) or `--at` (the checkout of critics, verifiers and orchestrators), given to a role it is not for. */
export function startPointNotForRoleError(flag: '--from' | '--at', role: string): SvcError<'startPointNotForRole'> {
  const instead =
    role === 'play'
      ? 'a play lane starts in an empty directory'
      : role === 'builder'
        ? 'a builder starts from --from <ref>'
        : `${an(role)} is checked out at --at <ref>`;
  const forWhom = flag === '--from' ? 'builder lanes' : 'critic, verifier and orchestrator lanes';
  return usage('startPointNotForRole', `${flag} is for ${forWhom}; ${instead}`);
}

/** `flags`: the start-point flags given with --reuse. */
export function startPointOnReuseError(flags: string[]): SvcError<'startPointOnReuse'> {
  return usage(
    'startPointOnReuse',
    `--reuse keeps the earlier lane's directory and checkout; drop ${flags.join(' and ')}`,
  );
}

export function badLaneKeyError(key: string, branch: string | undefined): SvcError<'badLaneKey'> {
  return usage(
    'badLaneKey',
    `lane key '${key}' gives the branch '${branch}', which is not a valid git branch name (git check-ref-format); choose another --key, or name the branch with --branch <name>`,
  );
}

// ---- Launch: iterations, --reuse, --replace, the directory (launch.ts, workdir.ts)

/** `activity`: what the live lane `live` is doing. */
export function secondLiveLaneError(
  slot: { run: string; key: string; role: string },
  live: Ref,
  activity: string,
): SvcError<'secondLiveLane'> {
  return refused(
    'secondLiveLane',
    `lane ${slot.run}/${slot.key} ${slot.role} is already live: #${live.id} (${live.name}) is ${activity}; wait for it, stop it, or pass --replace`,
  );
}

/** `svc conv resume` of a lane whose run, key and role already have another live lane. */
export function resumeSecondLiveLaneError(
  lane: Ref,
  slot: { run: string; key: string; role: string },
  live: Ref,
  activity: string,
): SvcError<'secondLiveLane'> {
  return refused(
    'secondLiveLane',
    `lane #${lane.id} (${lane.name}) is not resumed: lane ${slot.run}/${slot.key} ${slot.role} is already live as #${live.id} (${live.name}), ${activity}; one lane of a run, key and role runs at a time. Stop it first (svc lane stop ${live.name}), then resume this one, or keep working with ${live.name}`,
  );
}

export function nothingToReuseError(slot: { run: string; key: string; role: string }): SvcError<'nothingToReuse'> {
  return refused('nothingToReuse', `--reuse: there is no earlier ${slot.role} lane ${slot.run}/${slot.key} to reuse`);
}

export function reuseWhileLiveError(prev: Ref, activity: string): SvcError<'reuseWhileLive'> {
  return refused(
    'reuseWhileLive',
    `--reuse: the earlier lane #${prev.id} (${prev.name}) is still ${activity}; stop it first`,
  );
}

export function branchFrozenError(key: string, iteration: number): SvcError<'branchFrozen'> {
  return refused(
    'branchFrozen',
    `--reuse: builder ${key} i${iteration} reported done, so its branch is frozen; launch the next iteration instead`,
  );
}

/** Critic rule 3 per iteration, as a report says it (reportRefusals.ts), after `--reuse: `. */
export function iterationJudgedError(
  prev: LaneRef,
  earlier: { lane: LaneRef; verdict: Verdict },
): SvcError<'iterationJudged'> {
  return refused('iterationJudged', `--reuse: ${iterationJudgedMessage(prev, earlier)}`);
}

export function reuseDirGoneError(dir: string): SvcError<'reuseDirGone'> {
  return refused(
    'reuseDirGone',
    `--reuse: ${dir} no longer exists (the lane was reaped); launch a new iteration instead`,
  );
}

/** `--replace` or `--reuse` by an agent on a lane it did not launch (nor one of its lanes did): the person's, or a sibling's. */
export function notOwnLaneError(flag: '--replace' | '--reuse', lane: Ref, caller: Ref): SvcError<'notOwnLane'> {
  return refused(
    'notOwnLane',
    `${flag}: lane #${lane.id} (${lane.name}) was not launched by #${caller.id} (${caller.name}) or its lanes; an agent may ${flag === '--replace' ? 'stop' : 'reuse the directory of'} only its own lanes (the person may act on any)`,
  );
}

/** A sandboxed agent launching a lane with a weaker sandbox (`source`: where `off` came from). */
export function sandboxWeakerError(caller: Ref, source: string): SvcError<'sandboxWeaker'> {
  return refused(
    'sandboxWeaker',
    `#${caller.id} (${caller.name}) runs in the workspace sandbox and may not launch an unconfined lane (${source} says off): a lane's sandbox is at least its launcher's; launch it with --sandbox workspace, or ask the person to launch it`,
  );
}

export function noSuchBuilderError(forKey: string, run: string): SvcError<'noSuchBuilder'> {
  return refused('noSuchBuilder', `--for ${forKey}: run ${run} has no builder with that key`);
}

export function noDoneReportError(forKey: string, iteration: number): SvcError<'noDoneReport'> {
  return refused('noDoneReport', `builder ${forKey} i${iteration} has no done report; pass --at <sha>`);
}

export function replaceStopFailedError(live: Ref): SvcError<'replaceStopFailed'> {
  return conflict('replaceStopFailed', `--replace: lane #${live.id} (${live.name}) did not stop within 30 s`);
}

export function branchExistsError(branch: string): SvcError<'branchExists'> {
  return conflict('branchExists', `branch ${branch} already exists; pass --branch <name> for a new one`);
}

export function launchRaceError(run: string, key: string, role: string): SvcError<'launchRace'> {
  return conflict(
    'launchRace',
    `another launch of ${run}/${key} ${role} won the race; run svc lane list --run ${run} and try again`,
  );
}

export function dirExistsError(dir: string): SvcError<'dirExists'> {
  return conflict(
    'dirExists',
    `lane directory ${dir} already exists; reap the lane that used it or choose another key`,
  );
}

/** Another run and key join to the same `<run>-<key>` (`a-b`/`c` and `a`/`b-c`): the lane's
 *  name and directory would be `other`'s. */
export function keysClashError(
  slot: { run: string; key: string },
  dir: string,
  other: LaneRef & { run: string },
): SvcError<'keysClash'> {
  return refused(
    'keysClash',
    `run ${slot.run} and key ${slot.key} give the lane directory ${dir}, which lane ${other.run}/${other.key} ${other.role} i${other.iteration} (#${other.id} ${other.name}) already has: lane names and directories join run and key with -; choose another --key`,
  );
}

/**
 * A git failure or anything on a host while making the lane directory, with where (`host`);
 * `full`: the disk found full after it, which git's message need not name.
 */
export function laneDirFailedError(
  why: string,
  host?: string,
  full?: { folder: string; free: number },
): SvcError<'laneDirFailed'> {
  const disk = full
    ? `; the disk of ${full.folder} is full (${Math.floor(full.free / 1024)} KiB free): free space on it, then run it again`
    : '';
  return conflict(
    'laneDirFailed',
    `lane directory could not be prepared${host ? ` on host ${host}` : ''}: ${why.trimEnd()}${disk}`,
  );
}

// ---- A lane on another host (hostPlacement.ts)

export function hostNeedsOriginError(host: string, project: string): SvcError<'hostNeedsOrigin'> {
  return refused(
    'hostNeedsOrigin',
    `a lane on host ${host} is made from the project's origin, and project '${project}' has no origin remote; add one (git remote add origin <url>) that ${host} can reach`,
  );
}

/** `mkdir`: the command that makes it, quoted for the shell. */
export function hostLanesRootMissingError(root: string, host: string, mkdir: string): SvcError<'lanesRootMissing'> {
  return refused(
    'lanesRootMissing',
    `the lanes root ${root} does not exist on host ${host}; create it (${mkdir}) or fix hosts.${host}.lanes_root in config.yaml`,
  );
}

// ---- The lanes root (spec Launch rule 7; lanesRoot.ts)

export function lanesRootUnresolvableError(root: string): SvcError<'lanesRootUnresolvable'> {
  return refused(
    'lanesRootUnresolvable',
    `lanes root ${root} is a symlink whose target cannot be resolved; point gauntlet.lanes_root in projects.yaml at a real folder`,
  );
}

export function lanesRootContainsCheckoutError(root: string, checkout: string): SvcError<'lanesRootContainsCheckout'> {
  return refused(
    'lanesRootContainsCheckout',
    `lanes root ${root} contains the project checkout ${checkout}; choose a folder beside it (default: ${checkout}-lanes)`,
  );
}

export function lanesRootInsideCheckoutError(root: string, checkout: string): SvcError<'lanesRootInsideCheckout'> {
  return refused(
    'lanesRootInsideCheckout',
    `lanes root ${root} is inside the project checkout ${checkout}: lanes would be created in its working tree; set gauntlet.lanes_root in projects.yaml to a folder beside it (default: ${checkout}-lanes)`,
  );
}

export function lanesRootOutsideHomeError(root: string, home: string): SvcError<'lanesRootOutsideHome'> {
  return refused(
    'lanesRootOutsideHome',
    `lanes root ${root} is not under your home ${home}; set gauntlet.lanes_root in projects.yaml to a folder under it`,
  );
}

export function lanesRootInTmpError(root: string, tmp: string | undefined): SvcError<'lanesRootInTmp'> {
  return refused(
    'lanesRootInTmp',
    `lanes root ${root} is under ${tmp}; lanes must outlive reboots: set gauntlet.lanes_root outside /tmp`,
  );
}

// ---- Lookups, wait, tell, the HTTP routes (laneMethods.ts, wait.ts)

/** `lookup`: a lane asked for by reference (notFound); else a wait's target (usage). */
export function notALaneError(ref: string, lookup: boolean): SvcError<'notALane'> {
  return lookup
    ? notFound('notALane', `${ref} is a conversation, not a lane`)
    : usage('notALane', `${ref} is not a lane`);
}

export function laneOrRunKeyError(): SvcError<'laneOrRunKey'> {
  return usage('laneOrRunKey', 'name a lane, or pass --run <key> and --key <key>');
}

export function noSuchLaneError(run: string, key: string): SvcError<'noSuchLane'> {
  return notFound('noSuchLane', `run ${run} has no lane with key ${key}`);
}

/** `issues`: what the body's schema said, each as `path: message`. */
export function badBodyError(issues: string[]): SvcError<'badBody'> {
  return usage('badBody', `bad request: ${issues.join('; ')}`);
}

/** A set wait's cursor, or a one-lane wait's `--after`, that is not of the form it must be. */
export const badCursor = {
  cursor: (s: string): SvcError<'badCursor'> =>
    usage('badCursor', `cursor '${s}' is not of the form <atMs>.<name>.<seq>`),
  after: (after: string): SvcError<'badCursor'> =>
    usage('badCursor', `--after for one lane is a report number, got '${after}'`),
};

export function waitTargetError(): SvcError<'waitTarget'> {
  return usage('waitTarget', 'wait needs exactly one of <lane>, --run <key> or --parent <conv>');
}

/** A set wait on a run or parent with no lanes: nothing could ever report, so waiting would only time out. */
export function waitNoLanesError(set: { run: string } | { parent: string }): SvcError<'waitNoLanes'> {
  return notFound(
    'waitNoLanes',
    'run' in set
      ? `run ${set.run} has no lanes; nothing to wait for (svc lane runs lists the runs)`
      : `conversation ${set.parent} has launched no lanes; nothing to wait for`,
  );
}

export function judgeReportedError(lane: { role: string; name: string }): SvcError<'judgeReported'> {
  return refused(
    'judgeReported',
    `${lane.role} ${lane.name} already filed its done report; svc tell --force to message it anyway`,
  );
}

// ---- Reap on a host (reapOnHost.ts)

export function parkCopyFailedError(file: string, host: string, got: string, want: string): SvcError<'parkCopyFailed'> {
  return conflict(
    'parkCopyFailed',
    `the parked patch ${file} on host ${host} did not arrive whole (sha256 ${got.slice(0, 12)} ≠ ${want.slice(0, 12)}); it stays on the host: copy it with scp, the worktree is already clean`,
  );
}
