// Every refusal of `svc lane land` and of the project checks, each message made here and
// nowhere else (docs/style.md §16). Reasons: shared/refusals/land.ts. Each says what was
// refused, why, and what to do; a refused landing never moved the base.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import { LAND_REFUSALS } from '../../shared/refusals/land';

const { refused, conflict, notFound, internal } = refusalsOf(LAND_REFUSALS);

/** A lane as the refusals name it. */
interface LaneRef {
  name: string;
  role: string;
  key: string;
}

export function landNotABuilderError(lane: LaneRef): SvcError<'landNotABuilder'> {
  return refused(
    'landNotABuilder',
    `cannot land lane ${lane.name}: it is a ${lane.role}, and only a builder's branch lands; land the builder of key ${lane.key}`,
  );
}

export function landNoDoneReportError(lane: LaneRef): SvcError<'landNoDoneReport'> {
  return notFound(
    'landNoDoneReport',
    `cannot land lane ${lane.name}: it has filed no done report with a head, so nothing is frozen to land; wait for it (svc lane wait ${lane.name})`,
  );
}

export function checksSandboxError(reason: string, fix: string): SvcError<'landNoChecksSandbox'> {
  return refused('landNoChecksSandbox', `cannot run the project checks in the lane sandbox: ${reason}; ${fix}`);
}

export function landConflictError(lane: string, base: string, paths: readonly string[]): SvcError<'landConflict'> {
  const shown = paths.length > 20 ? [...paths.slice(0, 20), `… ${paths.length - 20} more`] : paths;
  return conflict(
    'landConflict',
    `cannot land lane ${lane}: its branch conflicts with ${base} in ${shown.join(', ')}; the base is unchanged; have the builder merge ${base} and report done again`,
  );
}

export function landCheckFailedError(
  lane: string,
  base: string,
  check: { name: string; exitCode: number | null; timedOut: boolean; tail: string; outputPath: string },
): SvcError<'landCheckFailed'> {
  const how = check.timedOut ? 'timed out' : check.exitCode === null ? 'was killed' : `exited ${check.exitCode}`;
  const tail = check.tail.trimEnd().split('\n').slice(-10).join('\n');
  return refused(
    'landCheckFailed',
    `cannot land lane ${lane}: check '${check.name}' ${how} on its branch combined with ${base}; the base is unchanged; all of its output: cat ${check.outputPath}` +
      (tail ? `\n--- end of ${check.name}'s output ---\n${tail}` : ''),
  );
}

export function landBaseMovedError(lane: string, base: string): SvcError<'landBaseMoved'> {
  return conflict(
    'landBaseMoved',
    `cannot land lane ${lane}: ${base} moved while its checks ran (svc never forces a base); land it again to test it on the new ${base}`,
  );
}

export function landInterruptedError(lane: string, base: string, moved: boolean): SvcError<'landInterrupted'> {
  return internal(
    'landInterrupted',
    `the landing of lane ${lane} was cut off by a daemon stop; ${moved ? `${base} had already moved to the landed tree` : `${base} is unchanged`}; ${moved ? 'nothing more to do' : 'land it again'}`,
  );
}

export function landPrNotReadyError(lane: string, pr: string, reasons: readonly string[]): SvcError<'landPrNotReady'> {
  return refused(
    'landPrNotReady',
    `cannot land lane ${lane}: ${pr} is not ready to merge: ${reasons.join('; ')}; the base is unchanged`,
  );
}

export function landFailedError(lane: string, base: string, why: string): SvcError<'landFailed'> {
  return internal('landFailed', `the landing of lane ${lane} failed: ${why}; ${base} is unchanged`);
}

export function pickNoSuchRunError(
  run: string,
  project: string | undefined,
  projects: readonly string[],
): SvcError<'pickNoSuchRun'> {
  if (projects.length > 1)
    return refused(
      'pickNoSuchRun',
      `cannot pick among run ${run}: it has lanes in several projects (${projects.join(', ')}); name one with --project`,
    );
  return notFound(
    'pickNoSuchRun',
    `cannot pick among run ${run}: no lanes of that run${project ? ` in project ${project}` : ''}; svc lane runs lists the runs`,
  );
}

/** An agent picking among builders it did not launch (itself, a sibling builder, a critic's run). */
export function pickNotAllowedError(why: string): SvcError<'pickNotAllowed'> {
  return refused(
    'pickNotAllowed',
    `an agent may only pick among builders it launched (their lanes and successors too), never itself; ${why} — ask the person or your launcher`,
  );
}
