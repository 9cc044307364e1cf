// Every refusal of the run record, each message made here and nowhere else (docs/style.md §16).
// Reasons: shared/refusals/runRecord.ts.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import { RUN_RECORD_REFUSALS } from '../../shared/refusals/runRecord';

const { notFound, usage } = refusalsOf(RUN_RECORD_REFUSALS);

export function runNotFoundError(run: string, project?: string): SvcError<'runNotFound'> {
  return notFound(
    'runNotFound',
    `no lanes in run ${run}${project ? ` of project ${project}` : ''}; svc lane runs lists the runs`,
  );
}

export function runInSeveralProjectsError(run: string, projects: string[]): SvcError<'runInSeveralProjects'> {
  return usage(
    'runInSeveralProjects',
    `run ${run} has lanes in projects ${projects.join(', ')}; name one with --project <key>`,
  );
}
