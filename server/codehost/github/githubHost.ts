// The GitHub code host through @octokit/rest (ESM; bundled by esbuild, loaded through
// require(esm) under tsx). Facts it relies on are in docs/codehost.md: reviews always pinned
// with commit_id, the 422 own-PR refusal, combined status `pending` with total_count 0
// meaning "no statuses", every list paginated. Head changes arrive by webhook (see
// webhook.ts, `receivePullRequestEvent`), and a conditional read of the open PRs every
// minute or so (`poll`) catches up a delivery that never came: answered 304 while
// nothing changed, which GitHub does not count against the rate limit.
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
import { HeadEvents } from '../headEvents';
import { checkComment, checkReview, checkStatus } from '../validate';
import { githubIdentityUnknownError, noMergeMethodError } from '../codehostRefusals';
import { asGithubError, ownPrRefusal } from './githubErrors';
import { githubClient } from './githubClient';
import type { GithubClient } from './githubClient';
import { toCheck, toComment, toPr, toReview, toStatus } from './githubMap';
import type { GhPull } from './githubMap';
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

/** The base each PR had when last seen, and when it last changed (an ISO time from GitHub). */
export interface PrBases {
  get(number: number): { base: string; changedAt: string | null } | undefined;
  set(number: number, base: string, changedAt: string | null): void;
}

function memoryBases(): PrBases {
  const kept = new Map<number, { base: string; changedAt: string | null }>();
  return { get: (n) => kept.get(n), set: (n, base, changedAt) => void kept.set(n, { base, changedAt }) };
}

type MergeMethod = 'merge' | 'squash' | 'rebase';

/** A PR's review threads: resolved or not, and the comments in each (REST does not say). */
const THREADS_QUERY = `query($owner: String!, $repo: String!, $number: Int!, $after: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $after) {
        pageInfo { hasNextPage endCursor }
        nodes { id isResolved comments(first: 100) { nodes { databaseId } } }
      }
    }
  }
}`;

interface ThreadsAnswer {
  repository?: {
    pullRequest?: {
      reviewThreads: {
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: { id: string; isResolved: boolean; comments: { nodes: { databaseId: number }[] } }[];
      };
    } | null;
  } | null;
}

/** Resolves one review thread, as a person does with "Resolve conversation". */
const RESOLVE_THREAD = `mutation($threadId: ID!) {
  resolveReviewThread(input: { threadId: $threadId }) { thread { id isResolved } }
}`;

type Thread = ThreadsAnswer extends {
  repository?: { pullRequest?: { reviewThreads: { nodes: (infer T)[] } } | null } | null;
}
  ? T
  : never;

export class GithubHost implements CodeHost {
  readonly kind = 'github' as const;
  readonly project: string;
  private readonly opener: GithubClient;
  private readonly reviewer: GithubClient;
  private readonly events = new HeadEvents();
  private readonly activity = new Set<(pr: { project: string; number: number }) => void>();
  private login?: Promise<string>;
  private readonly repoArgs: { owner: string; repo: string };
  /** The open-PR list's ETag and the head each PR had when last seen (poll or webhook). */
  private etag?: string;
  private readonly seenHeads = new Map<number, string>();
  /** Per PR: whether each verdict author can push, as the permission endpoint said at this head. */
  private readonly permissions = new Map<number, { head: string; asked: Map<string, Promise<boolean>> }>();
  private pollTimer?: NodeJS.Timeout;
  private polling = Promise.resolve();

  private readonly bases: PrBases;

  constructor(private readonly o: GithubHostOptions) {
    this.project = o.project;
    this.bases = o.bases ?? memoryBases();
    this.repoArgs = { owner: o.owner, repo: o.repo };
    this.opener = githubClient(o.token, o.baseUrl);
    this.reviewer = o.reviewerToken ? githubClient(o.reviewerToken, o.baseUrl) : this.opener;
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
  async listLineComments(number: number): Promise<LineComment[]> {
    try {
      const rows = await this.reviewer.paginate(this.reviewer.pulls.listReviewComments, {
        ...this.repoArgs,
        pull_number: number,
        per_page: 100,
      });
      const resolved = await this.resolvedCommentIds(number);
      return rows.map((c) => ({
        id: c.id,
        reviewId: c.pull_request_review_id ?? 0,
        path: c.path,
        line: c.line ?? c.original_line ?? 0,
        startLine: c.start_line ?? null,
        body: c.body,
        resolved: resolved.has(c.id) || (c.in_reply_to_id !== undefined && resolved.has(c.in_reply_to_id)),
      }));
    } catch (e) {
      throw asGithubError(e, `list the review comments of PR #${number}`);
    }
  }

  /** The database ids of the comments of the PR's resolved review threads. */
  private async resolvedCommentIds(number: number): Promise<Set<number>> {
    const out = new Set<number>();
    for (const t of await this.threads(number))
      if (t.isResolved) for (const c of t.comments.nodes) out.add(c.databaseId);
    return out;
  }

  /** The PR's review threads (GraphQL: REST does not say which are resolved). */
  private async threads(number: number): Promise<Thread[]> {
    const out: Thread[] = [];
    let after: string | null = null;
    for (let page = 0; page < 20; page++) {
      const r: ThreadsAnswer = await this.reviewer.graphql(THREADS_QUERY, { ...this.repoArgs, number, after });
      const threads = r.repository?.pullRequest?.reviewThreads;
      if (!threads) break;
      out.push(...threads.nodes);
      if (!threads.pageInfo.hasNextPage) break;
      after = threads.pageInfo.endCursor;
    }
    return out;
  }

  /** Resolves the open threads whose comments carry `needle` (a finding's marker), as the reviewer identity. */
  async resolveLineComments(number: number, needle: string): Promise<number> {
    try {
      const ids = new Set(
        (await this.listLineComments(number)).filter((c) => c.body.includes(needle)).map((c) => c.id),
      );
      let n = 0;
      for (const t of await this.threads(number)) {
        if (t.isResolved || !t.comments.nodes.some((c) => ids.has(c.databaseId))) continue;
        await this.reviewer.graphql(RESOLVE_THREAD, { threadId: t.id });
        n++;
      }
      return n;
    } catch (e) {
      throw asGithubError(e, `resolve the review threads of PR #${number}`);
    }
  }

  /** Each review with whether its author can push. For every verdict (approval or change
   *  request) that is asked of the permission endpoint: `author_association` COLLABORATOR
   *  or MEMBER is also given to people with read or triage access, whose verdicts GitHub's
   *  branch protection does not count either. The answers are kept per PR head (a
   *  permission changed meanwhile counts from the next push), once per author. */
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
    const asked = this.permissionsAt(number, head);
    return Promise.all(
      rows.map(async (r) => {
        const login = r.user?.login;
        if (!login || !VERDICTS.has(r.state.toUpperCase())) return toReview(r);
        if (!asked.has(login)) {
          const answer = this.canPush(login);
          asked.set(login, answer);
          answer.catch(() => asked.delete(login)); // a failed question is asked again next time
        }
        return toReview(r, await asked.get(login)!);
      }),
    );
  }

  /** Permission answers for the PR at `head` (a fresh set without a head). */
  private permissionsAt(number: number, head: string | null | undefined): Map<string, Promise<boolean>> {
    if (!head) return new Map();
    const kept = this.permissions.get(number);
    if (kept && kept.head === head) return kept.asked;
    const fresh = { head, asked: new Map<string, Promise<boolean>>() };
    this.permissions.set(number, fresh);
    return fresh.asked;
  }

  /** Push access by the permission endpoint; a user it will not tell about has none. */
  private async canPush(login: string): Promise<boolean> {
    try {
      const r = await this.reviewer.repos.getCollaboratorPermissionLevel({ ...this.repoArgs, username: login });
      const p = r.data.user?.permissions;
      return r.data.permission === 'admin' || r.data.permission === 'write' || !!(p?.push || p?.maintain || p?.admin);
    } catch (e) {
      const status = (e as { status?: number }).status;
      if (status === 404 || status === 403) return false;
      throw asGithubError(e, `read the permission of ${login}`);
    }
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
    return this.events.on(fn);
  }

  /** Comments and reviews changed on a PR (its readiness is computed anew by whoever reads it). */
  onPrActivity(fn: (pr: { project: string; number: number }) => void): () => void {
    this.activity.add(fn);
    return () => this.activity.delete(fn);
  }

  /** `owner/repo` of a PR head is this repository (a fork's branch may share an issue branch's name). */
  private ownHead(headRepo: { full_name: string } | null | undefined): boolean {
    return !!headRepo && headRepo.full_name.toLowerCase() === `${this.o.owner}/${this.o.repo}`.toLowerCase();
  }

  /** When PR `number`'s base last changed, if it did since svc first saw the PR. */
  baseChangedAt(number: number): string | null {
    return this.bases.get(number)?.changedAt ?? null;
  }

  /** Keeps the base PR `number` has now; true when it differs from the one kept (or `changed` says so). */
  private noteBase(number: number, base: string | undefined, at: string | undefined, changed = false): boolean {
    if (!base) return false;
    const kept = this.bases.get(number);
    if (!changed && (!kept || kept.base === base)) {
      if (!kept) this.bases.set(number, base, null);
      return false;
    }
    this.bases.set(number, base, at ?? new Date().toISOString());
    return true;
  }

  /** A verified, first-seen `pull_request` delivery. Returns what was done, for the webhook's answer and log. */
  receivePullRequestEvent(
    action: string,
    payload: PullRequestPayload,
  ): 'headChange' | 'baseChange' | 'ignored' | 'fork' {
    const pr = payload.pull_request;
    // A head from another repository is never one of svc's issue branches, whatever its name.
    if (pr.head.repo !== undefined && !this.ownHead(pr.head.repo)) return 'fork';
    // Moved to another base: the diff changed under the same head, so it is a new review target.
    if (action === 'edited') {
      if (!payload.changes?.base || !this.noteBase(pr.number, pr.base?.ref, pr.updated_at, true)) return 'ignored';
      this.events.emit({
        project: this.project,
        number: pr.number,
        branch: pr.head.ref,
        before: pr.head.sha,
        after: pr.head.sha,
        source: 'webhook',
        action: 'base_changed',
      });
      return 'baseChange';
    }
    this.noteBase(pr.number, pr.base?.ref, pr.updated_at);
    let before: string | null = null;
    let after = pr.head.sha;
    if (action === 'synchronize') {
      before = payload.before ?? null;
      after = payload.after ?? pr.head.sha;
    } else if (!['opened', 'reopened', 'ready_for_review'].includes(action)) return 'ignored';
    if (before === after) return 'ignored';
    this.seenHeads.set(pr.number, after);
    this.events.emit({
      project: this.project,
      number: pr.number,
      branch: pr.head.ref,
      before,
      after,
      source: 'webhook',
      action,
    });
    return 'headChange';
  }

  /** Reads the open PRs now and every `everyMs` (conditionally), reporting heads the webhooks did not. */
  startPolling(everyMs: number): void {
    if (this.pollTimer || everyMs <= 0) return;
    this.pollTimer = setInterval(() => void this.poll(), everyMs);
    this.pollTimer.unref();
    void this.poll(); // at once too: deliveries may have been missed while the daemon was stopped
  }

  /** One conditional read of the open PRs (most recently updated first); serialized. */
  poll(): Promise<void> {
    this.polling = this.polling.then(async () => {
      let r;
      try {
        r = await this.opener.pulls.list({
          ...this.repoArgs,
          state: 'open',
          sort: 'updated',
          direction: 'desc',
          per_page: 100,
          headers: this.etag ? { 'if-none-match': this.etag } : {},
        });
      } catch (e) {
        if ((e as { status?: number }).status === 304) return; // nothing changed since the last read
        log.warn(
          `polling the open PRs of ${this.o.owner}/${this.o.repo} failed: ${asGithubError(e, 'list the open PRs').message}`,
        );
        return;
      }
      this.etag = r.headers.etag;
      for (const pr of r.data) {
        // A head from another repository, or from a fork since deleted (`repo` null), is never one of svc's branches.
        if (!this.ownHead(pr.head.repo)) continue;
        if (this.noteBase(pr.number, pr.base.ref, pr.updated_at)) {
          this.events.emit({
            project: this.project,
            number: pr.number,
            branch: pr.head.ref,
            before: pr.head.sha,
            after: pr.head.sha,
            source: 'poll',
            action: 'base_changed',
          });
        }
        const before = this.seenHeads.get(pr.number) ?? null;
        if (before === pr.head.sha) continue;
        this.seenHeads.set(pr.number, pr.head.sha);
        // Heads seen first by this poll are reported too: the review pipeline keeps one review per head.
        this.events.emit({
          project: this.project,
          number: pr.number,
          branch: pr.head.ref,
          before,
          after: pr.head.sha,
          source: 'poll',
        });
      }
    });
    return this.polling;
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

  async close(): Promise<void> {
    clearInterval(this.pollTimer);
    await this.polling;
  }
}
