// The GitHub path of a landing (docs/decisions/land.md, "Landing on GitHub"): the base
// moves only through the builder's PR and GitHub's merge, so branch protection, required
// reviews and checks stay GitHub's to enforce. Here: the PR found (or its branch pushed and
// the PR opened), its readiness read live, and a merged PR recognised after a restart.
import type { Landing } from '../../shared/protocol/land';
import type { PullRequest } from '../../shared/protocol/pr';
import type { CodeHost } from '../codehost/codeHost';
import { prDetail } from '../codehost/prState';
import type { ReviewedShas } from '../codehost/prState';
import { short } from '../codehost/readiness';
import { git, gitOk, serialized } from '../git/git';
import { landPrNotReadyError } from './landRefusals';

/** A GitHub project's host and the review pipeline's record of what it reviewed. */
export interface GithubLanding {
  host: CodeHost;
  reviewed?: ReviewedShas;
}

export const prName = (pr: Pick<PullRequest, 'project' | 'number'>) => `PR ${pr.project}#${pr.number}`;

/**
 * The open PR of the builder's branch, at the done head being landed. The branch is pushed
 * (plainly, never forced) when origin does not have it or has an older commit of it; a PR
 * is opened when none is open for it. Refused when the branch or the PR points elsewhere:
 * svc lands the frozen head, never whatever the branch holds now.
 */
export async function prForLanding(
  repo: string,
  gh: GithubLanding,
  landing: Landing,
  branch: string | null,
): Promise<PullRequest> {
  const refuse = (what: string, reasons: string[]) => landPrNotReadyError(landing.lane, what, reasons);
  if (!branch) throw refuse('its PR', ['the lane has no branch to open a PR from']);
  const remote = await remoteBranch(repo, branch);
  if (remote !== landing.headSha) {
    if (remote && !(await gitOk(repo, ['merge-base', '--is-ancestor', remote, landing.headSha])))
      throw refuse(`branch '${branch}'`, [
        `origin's ${branch} is at ${short(remote)}, which the done head ${short(landing.headSha)} does not contain; the builder must report done at its branch's head`,
      ]);
    await serialized(repo, () =>
      git(repo, ['push', '--quiet', '--no-verify', 'origin', `${landing.headSha}:refs/heads/${branch}`], {
        timeoutMs: 120_000,
      }),
    );
  }
  let pr = await gh.host.getPullRequest({ branch });
  if (!pr || pr.state !== 'open')
    pr = await gh.host.createPullRequest({
      branch,
      base: landing.base,
      title: `Land ${landing.run}/${landing.key} (${landing.lane})`,
      body: `Opened by \`svc lane land\` for the builder's done head ${landing.headSha}.`,
    });
  if (pr.base !== landing.base)
    throw refuse(prName(pr), [`it targets '${pr.base}', not the project's base '${landing.base}'`]);
  if (pr.head !== landing.headSha)
    throw refuse(prName(pr), [`its head is ${short(pr.head)}, not the builder's done head ${short(landing.headSha)}`]);
  return pr;
}

/** Refused with GitHub's reasons unless the PR is ready to merge now (read live, nothing stored). */
export async function requireReady(gh: GithubLanding, landing: Landing, number: number): Promise<PullRequest> {
  const pr = await gh.host.getPullRequest(number);
  if (!pr) throw landPrNotReadyError(landing.lane, `PR #${number}`, ['it is gone from GitHub']);
  const { readiness } = await prDetail(gh.host, pr, gh.reviewed?.(pr));
  if (!readiness.ready) throw landPrNotReadyError(landing.lane, prName(pr), readiness.reasons);
  if (pr.head !== landing.headSha)
    throw landPrNotReadyError(landing.lane, prName(pr), [
      `its head moved to ${short(pr.head)} from the done head ${short(landing.headSha)}`,
    ]);
  return pr;
}

/** The base's new commit when the landing's PR is merged at its done head (a daemon killed after the merge). */
export async function mergedAt(gh: GithubLanding, landing: Landing): Promise<string | null> {
  if (landing.pr === null) return null;
  const pr = await gh.host.getPullRequest(landing.pr);
  return pr?.state === 'merged' && pr.head === landing.headSha ? pr.mergeSha : null;
}

/** origin's commit of `branch`, null when it has none. */
async function remoteBranch(repo: string, branch: string): Promise<string | null> {
  const out = await git(repo, ['ls-remote', 'origin', `refs/heads/${branch}`], { timeoutMs: 60_000 });
  return out.split('\t')[0].trim() || null;
}
