// The GitHub code host through @octokit/rest (ESM; bundled by esbuild, loaded through
// require(esm) under tsx). Facts it relies on are in docs/codehost.md: reviews always pinned
// with commit_id, the 422 own-PR refusal, combined status `pending` with total_count 0
// meaning "no statuses", every list paginated. Head changes (webhooks and the poll) are
// githubHeadWatch.ts's, review comments on lines and their threads githubLineComments.ts's,
// whether a reviewer can push githubPushAccess.ts's.
import type { PrState, PullRequest } from '../../../shared/protocol/pr';
import type {
  CodeHost,
  CreatePullRequest,
  CreateReview,
  LineComment,
  HeadChangeListener,
  MergeResult,
  SetStatus,
} from '../codeHost';
import { checkComment, checkReview, checkStatus } from '../validate';
import { githubIdentityUnknownError, noMergeMethodError } from '../codehostRefusals';
import { asGithubError, ownPrRefusal } from './githubErrors';
import { githubClient } from './githubClient';
import type { GithubClient } from './githubClient';
import { toCheck, toComment, toPr, toReview, toStatus } from './githubMap';
import type { GhPull } from './githubMap';
import { GithubHeadWatch } from './githubHeadWatch';
import { listLineComments, resolveLineComments } from './githubLineComments';
import { GithubPushAccess } from './githubPushAccess';
import { memoryBases } from './prBases';
import type { PrBases } from './prBases';
import type { IssueCommentPayload, PullRequestPayload } from './webhookPayload';
import { logger } from '../../util/log';

const log = logger('github');
const VERDICTS = new Set(['APPROVED', 'CHANGES_REQUESTED']);

export interface GithubHostOptions {
  project: string;
  owner: string;
  repo: string;
  /** Opens PRs and merges (GITHUB_TOKEN or codehost.github.token). */
  token: string;
  /** Reviews, comments and statuses; a separate identity gets formal reviews on the service's own PRs. */
  reviewerToken?: string;
  /** API root; default https://api.github.com (the tests point it at a local fake). */
  baseUrl?: string;
  defaultBase: string;
  /** Configured merge method; default the first the repository allows of merge, squash, rebase. */
  mergeMethod?: MergeMethod;
  /** The login reviews and comments are written as, for tokens GET /user refuses (Apps, Actions). */
  login?: string;
  /** Where each PR's base and its last change are kept (the daemon's store; in memory without one). */
  bases?: PrBases;
}

type MergeMethod = 'merge' | 'squash' | 'rebase';

export class GithubHost implements CodeHost {
  readonly kind = 'github' as const;
  readonly project: string;
  private readonly opener: GithubClient;
  private readonly reviewer: GithubClient;
  private readonly activity = new Set<(pr: { project: string; number: number }) => void>();
  private login?: Promise<string>;
  private readonly repoArgs: { owner: string; repo: string };
  private readonly heads: GithubHeadWatch;
  private readonly pushAccess: GithubPushAccess;

  constructor(private readonly o: GithubHostOptions) {
    this.project = o.project;
    this.repoArgs = { owner: o.owner, repo: o.repo };
    this.opener = githubClient(o.token, o.baseUrl);
    this.reviewer = o.reviewerToken ? githubClient(o.reviewerToken, o.baseUrl) : this.opener;
    this.heads = new GithubHeadWatch(o.project, o, this.opener, o.bases ?? memoryBases());
    this.pushAccess = new GithubPushAccess(this.reviewer, this.repoArgs);
  }

  /** Who the service writes as: configured, else GET /user (which App installation and
   *  Actions tokens may not read: then the refusal says what to configure). */
  whoami(): Promise<string> {
    if (this.o.login) return Promise.resolve(this.o.login);
    this.login ??= this.reviewer.users.getAuthenticated().then(
      (r) => r.data.login,
      (e) => {
        this.login = undefined;
        if ((e as { status?: number }).status === 403 && !/rate limit/i.test(String((e as Error).message))) {
          throw githubIdentityUnknownError((e as Error).message);
        }
        throw asGithubError(e, 'read the authenticated user');
      },
    );
    return this.login;
  }

  async createPullRequest(input: CreatePullRequest): Promise<PullRequest> {
    try {
      const r = await this.opener.pulls.create({
        ...this.repoArgs,
        head: input.branch,
        base: input.base ?? this.o.defaultBase,
        title: input.title,
        body: input.body ?? '',
      });
      return toPr(this.project, r.data);
    } catch (e) {
      throw asGithubError(e, `open a PR for '${input.branch}'`);
    }
  }

  async getPullRequest(ref: number | { branch: string }): Promise<PullRequest | undefined> {
    if (typeof ref === 'number') {
      try {
        return toPr(this.project, (await this.opener.pulls.get({ ...this.repoArgs, pull_number: ref })).data);
      } catch (e) {
        if ((e as { status?: number }).status === 404) return undefined;
        throw asGithubError(e, `read PR #${ref}`);
      }
    }
    const all = await this.pulls('all', `${this.o.owner}:${ref.branch}`);
    const hit = all.find((p) => p.state === 'open') ?? all.sort((a, b) => b.number - a.number)[0];
    // The list leaves out mergeable and mergeable_state, which readiness needs.
    return hit && (await this.getPullRequest(hit.number));
  }

  listPullRequests(opts: { state?: PrState | 'all' } = {}): Promise<PullRequest[]> {
    return this.pulls(opts.state ?? 'open');
  }

  private async pulls(state: PrState | 'all', head?: string): Promise<PullRequest[]> {
    try {
      const apiState = state === 'merged' ? 'closed' : state;
      const rows = await this.opener.paginate(this.opener.pulls.list, {
        ...this.repoArgs,
        state: apiState,
        head,
        per_page: 100,
      });
      return rows.map((p) => toPr(this.project, p as GhPull)).filter((p) => state === 'all' || p.state === state);
    } catch (e) {
      throw asGithubError(e, 'list PRs');
    }
  }

  async headSha(branch: string): Promise<string | null> {
    try {
      return (await this.opener.git.getRef({ ...this.repoArgs, ref: `heads/${branch}` })).data.object.sha;
    } catch (e) {
      if ((e as { status?: number }).status === 404) return null;
      throw asGithubError(e, `read branch '${branch}'`);
    }
  }

  async createReview(number: number, review: CreateReview) {
    checkReview(review);
    try {
      const r = await this.reviewer.pulls.createReview({
        ...this.repoArgs,
        pull_number: number,
        commit_id: review.commitId,
        event: review.event,
        body: review.body,
        ...(review.comments?.length
          ? {
              comments: review.comments.map((c) => ({
                path: c.path,
                line: c.line,
                side: 'RIGHT' as const,
                ...(c.startLine !== undefined && c.startLine < c.line
                  ? { start_line: c.startLine, start_side: 'RIGHT' as const }
                  : {}),
                body: c.body,
              })),
            }
          : {}),
      });
      return toReview(r.data);
    } catch (e) {
      const own = ownPrRefusal(e, number, await this.whoami().catch(() => 'unknown'));
      if (own) throw own;
      throw asGithubError(e, `review PR #${number}`);
    }
  }

  /** Review comments (REST) with their threads' resolution, which only GraphQL reports. */
  listLineComments(number: number): Promise<LineComment[]> {
    return listLineComments(this.reviewer, this.repoArgs, number);
  }

  /** Resolves the open threads whose comments carry `needle` (a finding's marker), as the reviewer identity. */
  resolveLineComments(number: number, needle: string): Promise<number> {
    return resolveLineComments(this.reviewer, this.repoArgs, number, needle);
  }

  /** Each review with whether its author can push, asked for every verdict (approval or
   *  change request) of the permission endpoint (githubPushAccess.ts). */
  async listReviews(number: number, head?: string | null) {
    let rows;
    try {
      rows = await this.reviewer.paginate(this.reviewer.pulls.listReviews, {
        ...this.repoArgs,
        pull_number: number,
        per_page: 100,
      });
    } catch (e) {
      throw asGithubError(e, `list the reviews of PR #${number}`);
    }
    const canPush = this.pushAccess.at(number, head);
    return Promise.all(
      rows.map(async (r) => {
        const login = r.user?.login;
        if (!login || !VERDICTS.has(r.state.toUpperCase())) return toReview(r);
        return toReview(r, await canPush(login));
      }),
    );
  }

  async createComment(number: number, body: string) {
    checkComment(body);
    try {
      return toComment(
        (await this.reviewer.issues.createComment({ ...this.repoArgs, issue_number: number, body })).data,
      );
    } catch (e) {
      throw asGithubError(e, `comment on PR #${number}`);
    }
  }

  async listComments(number: number) {
    try {
      return (
        await this.reviewer.paginate(this.reviewer.issues.listComments, {
          ...this.repoArgs,
          issue_number: number,
          per_page: 100,
        })
      ).map(toComment);
    } catch (e) {
      throw asGithubError(e, `list the comments of PR #${number}`);
    }
  }

  async setStatus(sha: string, s: SetStatus) {
    checkStatus(sha, s);
    try {
      const r = await this.reviewer.repos.createCommitStatus({
        ...this.repoArgs,
        sha,
        state: s.state,
        context: s.context,
        description: s.description,
        target_url: s.targetUrl,
      });
      return toStatus(r.data);
    } catch (e) {
      throw asGithubError(e, `set status '${s.context}' on ${sha.slice(0, 7)}`);
    }
  }

  /** The combined status, page by page; total_count 0 (reported as `pending`) means no statuses. */
  async listStatuses(sha: string) {
    try {
      const out = [];
      for (let page = 1; ; page++) {
        const r = await this.reviewer.repos.getCombinedStatusForRef({
          ...this.repoArgs,
          ref: sha,
          per_page: 100,
          page,
        });
        if (r.data.total_count === 0) return [];
        out.push(...r.data.statuses.map(toStatus));
        if (r.data.statuses.length === 0 || out.length >= r.data.total_count) break;
      }
      return out.sort((a, b) => a.context.localeCompare(b.context));
    } catch (e) {
      throw asGithubError(e, `read the statuses of ${sha.slice(0, 7)}`);
    }
  }

  async listChecks(sha: string) {
    const statuses = await this.listStatuses(sha);
    try {
      const runs = await this.reviewer.paginate(this.reviewer.checks.listForRef, {
        ...this.repoArgs,
        ref: sha,
        per_page: 100,
      });
      return [
        ...statuses.map((s) => ({ name: s.context, source: 'status' as const, state: s.state })),
        ...runs.map(toCheck),
      ];
    } catch (e) {
      throw asGithubError(e, `read the check runs of ${sha.slice(0, 7)}`);
    }
  }

  async mergePullRequest(number: number, opts: { sha: string; method?: MergeMethod }): Promise<MergeResult> {
    const method = opts.method ?? this.o.mergeMethod ?? (await this.allowedMergeMethod());
    try {
      const r = await this.opener.pulls.merge({
        ...this.repoArgs,
        pull_number: number,
        sha: opts.sha,
        merge_method: method,
      });
      return { sha: r.data.sha, method };
    } catch (e) {
      throw asGithubError(e, `merge PR #${number} (${method})`);
    }
  }

  /** The first method the repository allows, in GitHub's own order (a repository may allow only squash or rebase). */
  private async allowedMergeMethod(): Promise<MergeMethod> {
    let repo;
    try {
      repo = (await this.opener.repos.get(this.repoArgs)).data;
    } catch (e) {
      throw asGithubError(e, `read the merge settings of ${this.o.owner}/${this.o.repo}`);
    }
    if (repo.allow_merge_commit !== false) return 'merge';
    if (repo.allow_squash_merge !== false) return 'squash';
    if (repo.allow_rebase_merge !== false) return 'rebase';
    throw noMergeMethodError(`${this.o.owner}/${this.o.repo}`);
  }

  onHeadChange(fn: HeadChangeListener): () => void {
    return this.heads.onHeadChange(fn);
  }

  /** Comments and reviews changed on a PR (its readiness is computed anew by whoever reads it). */
  onPrActivity(fn: (pr: { project: string; number: number }) => void): () => void {
    this.activity.add(fn);
    return () => this.activity.delete(fn);
  }

  /** When PR `number`'s base last changed, if it did since svc first saw the PR. */
  baseChangedAt(number: number): string | null {
    return this.heads.baseChangedAt(number);
  }

  /** A verified, first-seen `pull_request` delivery. Returns what was done, for the webhook's answer and log. */
  receivePullRequestEvent(
    action: string,
    payload: PullRequestPayload,
  ): 'headChange' | 'baseChange' | 'ignored' | 'fork' {
    return this.heads.receivePullRequestEvent(action, payload);
  }

  /** Reads the open PRs now and every `everyMs` (conditionally), reporting heads the webhooks did not. */
  startPolling(everyMs: number): void {
    this.heads.startPolling(everyMs);
  }

  /** One conditional read of the open PRs (most recently updated first); serialized. */
  poll(): Promise<void> {
    return this.heads.poll();
  }

  /** A verified `issue_comment` delivery: a comment on a PR was written, edited or deleted
   *  (an edited verdict marker stops counting), so views read its readiness again. */
  receiveIssueCommentEvent(action: string, payload: IssueCommentPayload): 'prActivity' | 'ignored' {
    if (!payload.issue.pull_request || !['created', 'edited', 'deleted'].includes(action)) return 'ignored';
    for (const fn of [...this.activity]) {
      try {
        fn({ project: this.project, number: payload.issue.number });
      } catch (e) {
        log.error('PR activity listener failed', e);
      }
    }
    return 'prActivity';
  }

  close(): Promise<void> {
    return this.heads.close();
  }
}
