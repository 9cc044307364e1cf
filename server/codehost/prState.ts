// A PR as `svc pr show`, merge and the review pipeline see it: the PR, its reviews,
// comments and checks at the live head, the service's identity, and readiness computed
// from them now (nothing stored).
import type { PrDetail, PullRequest } from '../../shared/protocol/pr';
import type { CodeHost, MergeResult } from './codeHost';
import { notReadyError, unknownPrError } from './codehostRefusals';
import { readiness } from './readiness';

/** What the service's journal recorded of the verdicts it posted on a PR: review id → the
 *  sha it reviewed, and head sha → the newest verdict recorded for it (its id and `via`). */
export interface ServiceVerdicts {
  reviewed: ReadonlyMap<number, string>;
  newest: ReadonlyMap<string, { id: number; via: string }>;
}
export type ReviewedShas = (pr: PullRequest) => ServiceVerdicts | undefined;

/** `12`, `#12` → that number; anything else is a head branch name. */
export async function findPr(host: CodeHost, ref: string): Promise<PullRequest> {
  const m = /^#?(\d{1,9})$/.exec(ref);
  const pr = await host.getPullRequest(m ? Number(m[1]) : { branch: ref });
  if (!pr) throw unknownPrError(host.project, m ? Number(m[1]) : { branch: ref });
  return pr;
}

/** `service`: what the service's journal recorded of its verdicts (see ServiceVerdicts), trusted over what the host now shows. */
export async function prDetail(host: CodeHost, pr: PullRequest, service?: ServiceVerdicts): Promise<PrDetail> {
  const [identity, reviews, lineComments, comments, checks] = await Promise.all([
    host.whoami(),
    host.listReviews(pr.number, pr.head),
    host.listLineComments(pr.number),
    host.listComments(pr.number),
    pr.head ? host.listChecks(pr.head) : Promise.resolve([]),
  ]);
  return {
    codeHost: host.kind,
    identity,
    pr,
    reviews,
    lineComments,
    comments,
    checks,
    readiness: readiness({
      pr,
      identity,
      reviews,
      comments,
      checks,
      reviewed: service?.reviewed,
      newest: service?.newest,
      baseChangedAt: host.baseChangedAt?.(pr.number) ?? null,
    }),
  };
}

/** Merges only a ready PR, and exactly the head readiness was computed for. */
export async function mergeIfReady(
  host: CodeHost,
  ref: string,
  reviewedOf?: ReviewedShas,
): Promise<{ pr: PullRequest } & MergeResult> {
  const found = await findPr(host, ref);
  const detail = await prDetail(host, found, reviewedOf?.(found));
  const { pr } = detail;
  if (!detail.readiness.ready) {
    throw notReadyError(pr.project, pr.number, detail.readiness.reasons);
  }
  const result = await host.mergePullRequest(pr.number, { sha: pr.head! });
  return { pr: (await host.getPullRequest(pr.number)) ?? pr, ...result };
}
