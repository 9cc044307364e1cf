// Every refusal of a lane's push through svc (lanes/push, bin/git-remote-svc): the whole
// request (not from a lane, a remote that is not the project's), each made here and nowhere
// else (docs/style.md §16); and the words git shows for one ref the ref policy refuses
// (`! [remote rejected] <ref> (<words>)`). Reasons: shared/refusals/pushes.ts.
import { refusalsOf } from '../../shared/errors';
import type { SvcError } from '../../shared/errors';
import { PUSH_REFUSALS } from '../../shared/refusals/pushes';
import { an } from './laneRefusals';

const { refused } = refusalsOf(PUSH_REFUSALS);

export function pushNotFromLaneError(): SvcError<'pushNotFromLane'> {
  return refused(
    'pushNotFromLane',
    'pushes through svc are for lanes (git-remote-svc inside a lane); outside one, push to the remote itself',
  );
}

export function pushRemoteNotLocalError(remote: string, project: string): SvcError<'pushRemoteNotLocal'> {
  return refused(
    'pushRemoteNotLocal',
    `${remote} is not a push remote of project ${project} on this machine; svc pushes a lane only to its project's own local remotes`,
  );
}

/** A lane as the policy's words name it. */
interface Pusher {
  name: string;
  role: string;
  branch: string | null;
}

/** What git shows for one refused ref (one line: the remote helper protocol has no room for more). */
export const refRefused = {
  notABranch: (ref: string): string => `svc pushes branches only (refs/heads/...); ${ref} is not one`,
  badName: (ref: string): string => `${ref} is not a valid branch name`,
  base: (base: string, lane: Pusher): string =>
    `no lane moves the base branch ${base} (lane ${lane.name} is ${an(lane.role)} lane); it changes only by a merged PR`,
  notOwn: (branch: string, lane: Pusher, owner: string | undefined): string => {
    const own = lane.branch ? `its own branch ${lane.branch}` : 'no branch (it has none of its own)';
    const whose = owner ? `${branch} is lane ${owner}'s branch` : `${branch} is no branch of this lane`;
    return `${whose}; ${an(lane.role)} lane pushes only ${own}${lane.role === 'orchestrator' ? ' and those of the lanes it launched' : ''}`;
  },
  noCommit: (sha: string): string => `${sha} is not a commit of the project's repository`,
  gitFailed: (why: string): string => `svc could not push it: ${why}`,
};
