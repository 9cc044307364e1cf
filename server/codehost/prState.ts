// A PR as `svc pr show`, merge and the review pipeline see it: the PR, its reviews,
// comments and checks at the live head, the service's identity, and readiness computed
// from them now (nothing stored).
import type { PrDetail, PullRequest } from '../../shared/protocol/pr';
import type { CodeHost, MergeResult } from './codeHost';
import { notReadyError, unknownPrError } from './codehostRefusals';
import { readiness } from './readiness';

/** The shas the service recorded for the reviews it posted on a PR (review id → sha). */
export type ReviewedShas = (pr: PullRequest) => ReadonlyMap<number, string> | undefined;

/** `12`, `#12` → that number; anything else is a head branch name. */
export async function findPr(host: CodeHost, ref: string): Promise<PullRequest> {
  const m = /^#?(\d{1,9})$/.exec(ref);
  const pr = await host.getPullRequest(m ? Number(m[1]) : { branch: ref });
  if (!pr) throw unknownPrError(host.project, m ? Number(m[1]) : { branch: ref });
  return pr;
}

/** `reviewed`: review id → the sha the service reviewed (its journal), trusted over the host's commit_id. */
export async function prDetail(host: CodeHost, pr: PullRequest, reviewed?: ReadonlyMap<number, string>): Promise<PrDetail> {
  const [identity, reviews, comments, checks] = await Promise.all([
    host.whoami(),
    host.listReviews(pr.number),
    host.listComments(pr.number),
    pr.head ? host.listChecks(pr.head) : Promise.resolve([]),
  ]);
  return { codeHost: host.kind, identity, pr, reviews, comments, checks, readiness: readiness({ pr, identity, reviews, comments, checks, reviewed }) };
}

/** Merges only a ready PR, and exactly the head readiness was computed for. */
export async function mergeIfReady(host: CodeHost, ref: string, reviewedOf?: ReviewedShas): Promise<{ pr: PullRequest } & MergeResult> {
  const found = await findPr(host, ref);
  const detail = await prDetail(host, found, reviewedOf?.(found));
  const { pr } = detail;
  if (!detail.readiness.ready) {
    throw notReadyError(pr.project, pr.number, detail.readiness.reasons);
  }
  const result = await host.mergePullRequest(pr.number, { sha: pr.head! });
  return { pr: (await host.getPullRequest(pr.number)) ?? pr, ...result };
}
