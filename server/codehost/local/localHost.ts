// The local code host, svc's embedded default: PRs, reviews, comments and commit
// statuses in the store, over a bare repository on disk (the project's remote). It
// behaves like GitHub where the pipeline depends on it: reviews pinned to a commit,
// APPROVE / REQUEST_CHANGES by the PR's author refused (selfReviewRefused), head changes
// seen by watching the remote's refs, merges that never touch anyone's checkout.
import type { PrState, PullRequest } from '../../../shared/protocol/pr';
import type { Db } from '../../store/db';
import { logger } from '../../util/log';
import type {
  CodeHost,
  CreatePullRequest,
  CreateReview,
  HeadChangeListener,
  MergeResult,
  SetStatus,
} from '../codeHost';
import {
  baseMissingError,
  branchNotPushedError,
  headMissingError,
  headMovedError,
  prExistsError,
  prNotOpenError,
  sameBranchError,
  selfReviewRefusedError,
  unknownCommitError,
  unknownPrError,
} from '../codehostRefusals';
import { HeadEvents } from '../headEvents';
import { checkComment, checkReview, checkStatus } from '../validate';
import { branchSha, checkBranchName, isCommit, mergeInto, readHeads } from './bareRepo';
import { LocalStore } from './localStore';
import type { PrRow } from './localStore';
import { RefWatcher } from './refWatcher';
import type { RefWatcherOptions } from './refWatcher';

export interface LocalHostOptions {
  db: Db;
  project: string;
  /** The bare repository that is the project's remote. */
  gitDir: string;
  defaultBase: string;
  /** Login that opens PRs (their author) and merges. */
  user: string;
  /** Login the service reviews, comments and sets statuses as (`codehost.local.reviewer`). */
  reviewer: string;
  now: () => number;
  watch?: RefWatcherOptions;
}

const log = logger('codehost');

const REVIEW_STATE = { APPROVE: 'APPROVED', REQUEST_CHANGES: 'CHANGES_REQUESTED', COMMENT: 'COMMENTED' } as const;

export class LocalHost implements CodeHost {
  readonly kind = 'local' as const;
  readonly project: string;
  private readonly store: LocalStore;
  private readonly events = new HeadEvents();
  private watcher?: RefWatcher;
  private scanning: Promise<void> = Promise.resolve();
  private merging: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: LocalHostOptions) {
    this.project = o.project;
    this.store = new LocalStore(o.db, o.project);
  }

  async whoami(): Promise<string> {
    return this.o.reviewer;
  }

  async createPullRequest(input: CreatePullRequest): Promise<PullRequest> {
    const base = input.base ?? this.o.defaultBase;
    await checkBranchName(this.o.gitDir, input.branch);
    await checkBranchName(this.o.gitDir, base);
    if (input.branch === base) throw sameBranchError(base);
    const head = await branchSha(this.o.gitDir, input.branch);
    if (!head) throw branchNotPushedError(input.branch, this.o.gitDir);
    if (!(await branchSha(this.o.gitDir, base))) throw baseMissingError(base, this.o.gitDir);
    const open = this.store.prForBranch(input.branch);
    if (open?.state === 'open') throw prExistsError(input.branch, open.number);
    const row = this.store.insertPr({
      title: input.title,
      body: input.body ?? '',
      branch: input.branch,
      base,
      author: this.o.user,
      head,
      at: this.o.now(),
    });
    if (!row) throw prExistsError(input.branch);
    this.events.emit({
      project: this.project,
      number: row.number,
      branch: row.head_branch,
      before: null,
      after: head,
      source: 'opened',
    });
    this.startWatching();
    return this.toPr(row, head);
  }

  async getPullRequest(ref: number | { branch: string }): Promise<PullRequest | undefined> {
    const row = typeof ref === 'number' ? this.store.pr(ref) : this.store.prForBranch(ref.branch);
    return row ? this.toPr(row, await this.liveHead(row)) : undefined;
  }

  async listPullRequests(opts: { state?: PrState | 'all' } = {}): Promise<PullRequest[]> {
    const rows = this.store.prs(opts.state ?? 'open');
    const heads = rows.length ? await readHeads(this.o.gitDir) : new Map<string, string>();
    return rows.map((r) => this.toPr(r, r.state === 'merged' ? r.merged_head_sha : (heads.get(r.head_branch) ?? null)));
  }

  async headSha(branch: string): Promise<string | null> {
    await checkBranchName(this.o.gitDir, branch);
    return branchSha(this.o.gitDir, branch);
  }

  async createReview(number: number, review: CreateReview) {
    checkReview(review);
    const row = this.openPr(number, 'review');
    if (!(await isCommit(this.o.gitDir, review.commitId))) throw unknownCommitError(review.commitId, this.o.gitDir);
    if (review.event !== 'COMMENT' && this.o.reviewer === row.author) {
      const what =
        review.event === 'APPROVE'
          ? 'Can not approve your own pull request'
          : 'Can not request changes on your own pull request';
      throw selfReviewRefusedError(number, this.o.reviewer, what);
    }
    return this.store.insertReview(
      row.id,
      {
        author: this.o.reviewer,
        state: REVIEW_STATE[review.event],
        body: review.body,
        commitId: review.commitId,
        at: this.o.now(),
      },
      review.comments,
    );
  }

  async listLineComments(number: number) {
    return this.store.lineComments(this.row(number).id);
  }

  /** Resolves the line comments carrying `needle` (a finding's marker): the local host's thread resolution. */
  async resolveLineComments(number: number, needle: string): Promise<number> {
    return this.store.resolveLineComments(this.row(number).id, needle);
  }

  async listReviews(number: number) {
    return this.store.reviews(this.row(number).id);
  }

  async createComment(number: number, body: string) {
    checkComment(body);
    return this.store.insertComment(this.row(number).id, { author: this.o.reviewer, body, at: this.o.now() });
  }

  async listComments(number: number) {
    return this.store.comments(this.row(number).id);
  }

  async setStatus(sha: string, s: SetStatus) {
    checkStatus(sha, s);
    if (!(await isCommit(this.o.gitDir, sha))) throw unknownCommitError(sha, this.o.gitDir);
    return this.store.insertStatus({ sha, ...s, creator: this.o.reviewer, at: this.o.now() });
  }

  async listStatuses(sha: string) {
    return this.store.statuses(sha);
  }

  async listChecks(sha: string) {
    // The local host has commit statuses only; check runs are a GitHub App feature.
    return this.store.statuses(sha).map((s) => ({ name: s.context, source: 'status' as const, state: s.state }));
  }

  mergePullRequest(number: number, opts: { sha: string }): Promise<MergeResult> {
    // One merge at a time per remote: the second sees the first's result.
    const run = this.merging.then(async () => {
      const row = this.openPr(number, 'merge');
      const head = await branchSha(this.o.gitDir, row.head_branch);
      if (!head) throw headMissingError(row.head_branch);
      if (head !== opts.sha) throw headMovedError(number, head);
      const title = `Merge pull request #${number} from ${row.head_branch}`;
      const result = await mergeInto(this.o.gitDir, {
        base: row.base_branch,
        head,
        message: `${title}\n\n${row.title}`,
        identity: { name: this.o.user, email: `${this.o.user}@svc.invalid` },
      });
      this.store.markMerged(row.id, head, result.sha, this.o.now());
      return result;
    });
    this.merging = run.catch(() => undefined);
    return run;
  }

  onHeadChange(fn: HeadChangeListener): () => void {
    return this.events.on(fn);
  }

  /** Watches the remote's refs while the project has open PRs; reports what moved while nobody watched. */
  startWatching(): void {
    if (this.watcher || this.store.prs('open').length === 0) return;
    this.watcher = new RefWatcher(
      this.o.gitDir,
      () => void this.rescan('push'),
      this.o.watch,
      () => this.store.prs('open').map((pr) => pr.head_branch),
    );
    this.watcher.start();
    void this.rescan('rescan');
  }

  /** Re-reads the remote's branches and reports each open PR whose head moved. Serialized. */
  rescan(source: 'push' | 'rescan'): Promise<void> {
    this.scanning = this.scanning
      .then(async () => {
        const open = this.store.prs('open');
        if (open.length === 0) return;
        const heads = await readHeads(this.o.gitDir);
        for (const pr of open) {
          const now = heads.get(pr.head_branch);
          if (!now || now === pr.last_head_sha) continue;
          if (this.store.moveHead(pr.id, pr.last_head_sha, now, this.o.now())) {
            this.events.emit({
              project: this.project,
              number: pr.number,
              branch: pr.head_branch,
              before: pr.last_head_sha,
              after: now,
              source,
            });
          }
        }
      })
      .catch((e) => log.error(`rescan of ${this.o.gitDir} failed`, e));
    return this.scanning;
  }

  async close(): Promise<void> {
    this.watcher?.close();
    await this.scanning;
  }

  private row(number: number): PrRow {
    const row = this.store.pr(number);
    if (!row) throw unknownPrError(this.project, number);
    return row;
  }

  private openPr(number: number, what: string): PrRow {
    const row = this.row(number);
    if (row.state !== 'open') throw prNotOpenError(number, row.state, what);
    return row;
  }

  private liveHead(row: PrRow): Promise<string | null> {
    return row.state === 'merged' ? Promise.resolve(row.merged_head_sha) : branchSha(this.o.gitDir, row.head_branch);
  }

  private toPr(r: PrRow, head: string | null): PullRequest {
    return {
      project: r.project,
      number: r.number,
      title: r.title,
      body: r.body,
      branch: r.head_branch,
      base: r.base_branch,
      author: r.author,
      state: r.state,
      draft: r.draft === 1,
      // The local host merges with merge-tree at merge time and reports conflicts then.
      mergeable: null,
      mergeableState: null,
      head,
      url: null,
      createdAt: new Date(r.created_at).toISOString(),
      mergedAt: r.merged_at === null ? null : new Date(r.merged_at).toISOString(),
      mergeSha: r.merge_sha,
    };
  }
}
